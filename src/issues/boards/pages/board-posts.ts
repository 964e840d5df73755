// The board page's forms: moving an issue to another list (admin_issue on the issue's project, as
// GitLab's board asks update rights on the issue) and adding a label list (admin_issue_board_list).
// Both run the API's actions. An htmx move gets the board back with a status line; a plain form post
// is sent back to the board with a flash. A project board's card names its issue by iid; a group
// board's by id, the issue then found through its project, which must be the viewer's to read and
// one of the group's.
import type { GroupAccess, ProjectAccess } from '../../../platform/auth/subjects.js';
import { canOnProject } from '../../../platform/auth/policies/policy.js';
import { ForbiddenError, RecordNotFoundError } from '../../../platform/errors.js';
import type { PageContext } from '../../../platform/web/page-route.js';
import { fragment, redirect, type PageOutcome } from '../../../platform/web/page.js';
import { findProject } from '../../../accounts/api.js';
import { findIssueById, findReadableIssue, type PolicyIssue } from '../../finder.js';
import { findBoard, listsOfBoard } from '../finder.js';
import { listKeyOf, moveIssue } from '../move-issue.js';
import { createList } from '../create-list.js';
import { BoardListError } from '../list-errors.js';
import { renderBoardSection } from './board-page.js';
import { groupBoardScope, projectBoardScope, type BoardScope } from './board-scope.js';

export const MOVE_PATTERN = /^(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/issues\/(?<iid>\d{1,9})\/move$/;
export const ADD_LIST_PATTERN = /^(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/lists$/;
export const GROUP_MOVE_PATTERN = /^groups\/(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/issues\/(?<issue>\d{1,15})\/move$/;
export const GROUP_ADD_LIST_PATTERN = /^groups\/(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/lists$/;

interface Target {
  access: ProjectAccess;
  issue: PolicyIssue;
}

async function move(context: PageContext, scope: BoardScope, target: () => Promise<Target>): Promise<PageOutcome> {
  const { deps } = context;
  const board = await findBoard(deps, scope.parent, Number(context.match.board));
  const { access, issue } = await target();
  if (!canOnProject(access, 'admin_issue')) throw new ForbiddenError();
  const self = `${scope.root}/${board.id}`;
  const from = listKeyOf(context.form.from);
  const to = listKeyOf(context.form.to);
  if (from === undefined || to === undefined) return redirect(self);
  const lists = await listsOfBoard(deps, board);
  await moveIssue(deps, context.user.id, access, lists, issue, from, to);
  const name = to === 'open' ? 'Open' : to === 'closed' ? 'Closed' : lists.find(({ list }) => Number(list.id) === to)?.label.title ?? '';
  const message = `Moved ${(await scope.cards([issue]))(issue).reference} to ${name}.`;
  if (context.request.headers['hx-request'] !== 'true') return redirect(self, message);
  return fragment(await renderBoardSection(context, scope, board, lists, message));
}

export async function handleMove(context: PageContext, access: ProjectAccess) {
  return move(context, projectBoardScope(context, access), async () => ({ access, issue: await findReadableIssue(context.deps, access, Number(context.match.iid)) }));
}

export async function handleGroupMove(context: PageContext, group: GroupAccess) {
  const { deps } = context;
  const scope = await groupBoardScope(deps, context, group);
  return move(context, scope, async () => {
    const row = await findIssueById(deps.db, Number(context.match.issue));
    const access = await findProject(deps, { user: context.user, scopes: ['api'], via: 'session', tokenId: null }, Number(row.project_id));
    if (!scope.holds(access.project)) throw new RecordNotFoundError();
    return { access, issue: await findReadableIssue(deps, access, Number(row.iid)) };
  });
}

async function addList(context: PageContext, scope: BoardScope) {
  const { deps } = context;
  const board = await findBoard(deps, scope.parent, Number(context.match.board));
  if (!scope.mayAddList) throw new ForbiddenError();
  const self = `${scope.root}/${board.id}`;
  const labelId = Number(context.form.label_id);
  try {
    const made = await createList(deps, scope.parent, board, Number.isSafeInteger(labelId) ? labelId : -1);
    return redirect(self, `Added the list ${made.label.title}.`);
  } catch (error) {
    if (error instanceof BoardListError) return redirect(self, error.message);
    throw error;
  }
}

export async function handleAddList(context: PageContext, access: ProjectAccess) {
  return addList(context, projectBoardScope(context, access));
}

export async function handleGroupAddList(context: PageContext, group: GroupAccess) {
  return addList(context, await groupBoardScope(context.deps, context, group));
}
