// Boards of a project or a group, and their label lists in board order. A board is always found
// through its parent: another parent's board id is GitLab's 404 "Not found".
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import type { NamespaceRow, ProjectRow } from '../../platform/auth/subjects.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { labelsByIds, type LabelRow } from '../../labels/api.js';
import type { Selectable } from 'kysely';
import type { BoardListsTable, BoardsTable } from '../../platform/db/tables/boards.js';

export type BoardRow = Selectable<BoardsTable>;
export type BoardListRow = Selectable<BoardListsTable>;

export type BoardParent = { project: ProjectRow; namespace: NamespaceRow } | { group: NamespaceRow };

export function boardsQuery(deps: Deps, parent: BoardParent) {
  const query = deps.db.selectFrom('boards').selectAll();
  return ('project' in parent ? query.where('project_id', '=', Number(parent.project.id)) : query.where('group_id', '=', Number(parent.group.id))).orderBy('id');
}

export async function findBoard(deps: Deps, parent: BoardParent, id: number): Promise<BoardRow> {
  const board = await boardsQuery(deps, parent).where('id', '=', id).executeTakeFirst();
  if (!board) throw new RecordNotFoundError();
  return board;
}

export interface ListWithLabel {
  list: BoardListRow;
  label: LabelRow;
}

/** A board's label lists in position order (a gap left by a deleted label is closed by the next move). */
export function listsQuery(executor: Executor, boardIds: number[]) {
  return executor.selectFrom('board_lists').selectAll().where('board_id', 'in', boardIds.length ? boardIds : [-1]).orderBy('board_id').orderBy('position').orderBy('id');
}

/** These lists with their labels. */
export async function withLabels(deps: Deps, lists: BoardListRow[]): Promise<ListWithLabel[]> {
  const labels = new Map((await labelsByIds(deps, [...new Set(lists.map((list) => Number(list.label_id)))])).map((label) => [Number(label.id), label]));
  return lists.flatMap((list) => {
    const label = labels.get(Number(list.label_id));
    return label ? [{ list, label }] : [];
  });
}

/** The label lists of these boards, each board's in position order. */
export async function listsOfBoards(deps: Deps, boardIds: number[]): Promise<Map<number, ListWithLabel[]>> {
  const byBoard = new Map<number, ListWithLabel[]>(boardIds.map((id) => [id, []]));
  if (boardIds.length === 0) return byBoard;
  for (const item of await withLabels(deps, await listsQuery(deps.db, boardIds).execute())) byBoard.get(Number(item.list.board_id))?.push(item);
  return byBoard;
}

/** One board's label lists in position order. */
export async function listsOfBoard(deps: Deps, board: BoardRow): Promise<ListWithLabel[]> {
  return (await listsOfBoards(deps, [Number(board.id)])).get(Number(board.id)) ?? [];
}

export async function findList(deps: Deps, board: BoardRow, id: number): Promise<ListWithLabel> {
  const found = (await listsOfBoard(deps, board)).find(({ list }) => Number(list.id) === id);
  if (!found) throw new RecordNotFoundError();
  return found;
}
