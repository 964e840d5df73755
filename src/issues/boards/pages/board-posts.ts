// The board page's forms: moving an issue to another list (admin_issue, as GitLab's board asks
// update rights on the issue) and adding a label list (admin_issue_board_list). Both run the API's
// actions. An htmx move gets the board back with a status line; a plain form post is sent back to
// the board with a flash.
import type { ProjectAccess } from '../../../platform/auth/subjects.js';
import { canOnProject } from '../../../platform/auth/policies/policy.js';
import { ForbiddenError } from '../../../platform/errors.js';
import type { PageContext } from '../../../platform/web/page-route.js';
import { fragment, redirect } from '../../../platform/web/page.js';
import { findReadableIssue } from '../../finder.js';
import { findBoard, listsOfBoard } from '../finder.js';
import { listKeyOf, moveIssue } from '../move-issue.js';
import { createList } from '../create-list.js';
import { BoardListError } from '../list-errors.js';
import { boardParent, renderBoardSection } from './board-page.js';

export const MOVE_PATTERN = /^(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/issues\/(?<iid>\d{1,9})\/move$/;
export const ADD_LIST_PATTERN = /^(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/lists$/;

export async function handleMove(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const board = await findBoard(deps, boardParent(access), Number(context.match.board));
  const issue = await findReadableIssue(deps, access, Number(context.match.iid));
  if (!canOnProject(access, 'admin_issue')) throw new ForbiddenError();
  const self = `/${access.project.full_path}/-/boards/${board.id}`;
  const from = listKeyOf(context.form.from);
  const to = listKeyOf(context.form.to);
  if (from === undefined || to === undefined) return redirect(self);
  const lists = await listsOfBoard(deps, board);
  await moveIssue(deps, context.user.id, access, lists, issue, from, to);
  const name = to === 'open' ? 'Open' : to === 'closed' ? 'Closed' : lists.find(({ list }) => Number(list.id) === to)?.label.title ?? '';
  const message = `Moved #${issue.iid} to ${name}.`;
  if (context.request.headers['hx-request'] !== 'true') return redirect(self, message);
  return fragment(await renderBoardSection(context, access, board, lists, message));
}

export async function handleAddList(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const board = await findBoard(deps, boardParent(access), Number(context.match.board));
  if (!canOnProject(access, 'admin_issue_board_list')) throw new ForbiddenError();
  const self = `/${access.project.full_path}/-/boards/${board.id}`;
  const labelId = Number(context.form.label_id);
  try {
    const made = await createList(deps, boardParent(access), board, Number.isSafeInteger(labelId) ? labelId : -1);
    return redirect(self, `Added the list ${made.label.title}.`);
  } catch (error) {
    if (error instanceof BoardListError) return redirect(self, error.message);
    throw error;
  }
}
