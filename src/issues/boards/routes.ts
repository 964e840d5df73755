// Issue boards (doc/api/boards.md, group_boards.md; lib/api/boards.rb, group_boards.rb): the same
// routes under /projects/:id and /groups/:id. Every call needs a signed-in caller (GitLab
// authenticates first); readers of the issues read boards, Reporters create, change and delete
// boards and their label lists. Lists are only label lists: Open and Closed are never listed.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute, type RouteContext } from '../../platform/http/route.js';
import { p, type ParamSchema } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { boardEntity, listEntity } from './entities.js';
import { boardsQuery, findBoard, findList, listsOfBoard, listsOfBoards, listsQuery, withLabels, type BoardParent } from './finder.js';
import { createBoard } from './create-board.js';
import { updateBoard } from './update-board.js';
import { deleteBoard } from './delete-board.js';
import { createList } from './create-list.js';
import { moveList } from './move-list.js';
import { deleteList } from './delete-list.js';
import { BoardListError } from './list-errors.js';

const TAGS = ['boards'];
const board = { id: p.string.required(), board_id: p.integer.required() };
const list = { ...board, list_id: p.integer.required() };

type Kind = 'projects' | 'groups';
type Ability = 'read_issue_board' | 'admin_issue_board' | 'admin_issue_board_list';

async function parentOf(kind: Kind, context: RouteContext<ParamSchema>): Promise<BoardParent> {
  if (kind === 'projects') {
    const access = await context.project();
    return { project: access.project, namespace: access.namespace };
  }
  return { group: (await context.group()).group };
}

/** GitLab's render_api_error!({ error: … }, 400) for a list write it refuses. */
async function listWrite<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BoardListError) throw new ApiError(400, { message: { error: error.message } });
    throw error;
  }
}

function boardRoutes(app: FastifyInstance, deps: Deps, kind: Kind): void {
  const ability = (name: Ability) => (kind === 'projects' ? { project: name } : { group: name });
  const owner = kind === 'projects' ? 'project' : 'group';
  const present = async (parent: BoardParent, row: Awaited<ReturnType<typeof findBoard>>) => boardEntity(deps.config, parent, row, await listsOfBoard(deps, row));

  apiRoute(app, deps, {
    method: 'GET', url: `/${kind}/:id/boards`, summary: `A ${owner}'s issue boards`, tags: TAGS, paginated: true,
    ability: ability('read_issue_board'),
    params: { id: p.string.required() },
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const rows = await context.paginate(boardsQuery(deps, parent));
      const lists = await listsOfBoards(deps, rows.map((row) => Number(row.id)));
      return rows.map((row) => boardEntity(deps.config, parent, row, lists.get(Number(row.id)) ?? []));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `/${kind}/:id/boards/:board_id`, summary: 'One issue board', tags: TAGS,
    ability: ability('read_issue_board'),
    params: board,
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      return present(parent, await findBoard(deps, parent, context.params.board_id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `/${kind}/:id/boards`, summary: 'Create an issue board', tags: TAGS,
    ability: ability('admin_issue_board'),
    params: { id: p.string.required(), name: p.string.required() },
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      return present(parent, await createBoard(deps, parent, context.params.name));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `/${kind}/:id/boards/:board_id`, summary: 'Rename a board, hide or show its Open and Closed lists', tags: TAGS,
    ability: ability('admin_issue_board'),
    params: { ...board, name: p.string.optional(), hide_backlog_list: p.boolean.optional(), hide_closed_list: p.boolean.optional() },
    handler: async (context) => {
      const { params } = context;
      const parent = await parentOf(kind, context);
      const found = await findBoard(deps, parent, params.board_id);
      return present(parent, await updateBoard(deps, found, { name: params.name, hideBacklogList: params.hide_backlog_list, hideClosedList: params.hide_closed_list }));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `/${kind}/:id/boards/:board_id`, summary: 'Delete an issue board', tags: TAGS,
    ability: ability('admin_issue_board'),
    params: board,
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      await deleteBoard(deps, await findBoard(deps, parent, context.params.board_id));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `/${kind}/:id/boards/:board_id/lists`, summary: "A board's label lists (not Open and Closed)", tags: TAGS, paginated: true,
    ability: ability('read_issue_board'),
    params: board,
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const found = await findBoard(deps, parent, context.params.board_id);
      return (await withLabels(deps, await context.paginate(listsQuery(deps.db, [Number(found.id)])))).map((item) => listEntity(item.list, item.label));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `/${kind}/:id/boards/:board_id/lists/:list_id`, summary: 'One label list of a board', tags: TAGS,
    ability: ability('read_issue_board'),
    params: list,
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const found = await findList(deps, await findBoard(deps, parent, context.params.board_id), context.params.list_id);
      return listEntity(found.list, found.label);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `/${kind}/:id/boards/:board_id/lists`, summary: 'Add a label list at the end of a board', tags: TAGS,
    ability: ability('admin_issue_board_list'),
    params: { ...board, label_id: p.integer.required() },
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const found = await findBoard(deps, parent, context.params.board_id);
      const made = await listWrite(() => createList(deps, parent, found, context.params.label_id));
      return listEntity(made.list, made.label);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `/${kind}/:id/boards/:board_id/lists/:list_id`, summary: 'Move a label list to another position', tags: TAGS,
    ability: ability('admin_issue_board_list'),
    params: { ...list, position: p.integer.required() },
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const found = await findBoard(deps, parent, context.params.board_id);
      const moved = await listWrite(async () => moveList(deps, found, await findList(deps, found, context.params.list_id), context.params.position));
      return listEntity(moved.list, moved.label);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `/${kind}/:id/boards/:board_id/lists/:list_id`, summary: 'Remove a label list from a board', tags: TAGS,
    ability: ability('admin_issue_board_list'),
    params: list,
    handler: async (context) => {
      const parent = await parentOf(kind, context);
      const found = await findBoard(deps, parent, context.params.board_id);
      await deleteList(deps, found, await findList(deps, found, context.params.list_id));
      return undefined;
    },
  });
}

export function boardsRoutes(app: FastifyInstance, deps: Deps): void {
  boardRoutes(app, deps, 'projects');
  boardRoutes(app, deps, 'groups');
}
