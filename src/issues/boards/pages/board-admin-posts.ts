// The board page's own forms for boards themselves (admin_issue_board, as POST/PUT/DELETE …/boards):
// create one (then shown), rename the shown one, delete it (the first remaining is shown; a project
// or group left without any gets the default one again on the next visit). A refused name is shown
// again beside its field, as typed.
import { ForbiddenError, ValidationError } from '../../../platform/errors.js';
import type { PageContext } from '../../../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../../../platform/web/page.js';
import { findBoard } from '../finder.js';
import { createBoard } from '../create-board.js';
import { updateBoard } from '../update-board.js';
import { deleteBoard } from '../delete-board.js';
import { renderBoard, type BoardFormFailure } from './board-page.js';
import type { BoardScope } from './board-scope.js';

export const NEW_BOARD_PATTERN = /^(?<path>.+?)\/-\/boards$/;
export const EDIT_BOARD_PATTERN = /^(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/(?<action>edit|delete)$/;
export const GROUP_NEW_BOARD_PATTERN = /^groups\/(?<path>.+?)\/-\/boards$/;
export const GROUP_EDIT_BOARD_PATTERN = /^groups\/(?<path>.+?)\/-\/boards\/(?<board>\d{1,15})\/(?<action>edit|delete)$/;

function nameOf(context: PageContext): string {
  const name = context.form.name;
  return typeof name === 'string' ? name : '';
}

async function refused(context: PageContext, scope: BoardScope, form: BoardFormFailure['form'], error: unknown): Promise<PageOutcome> {
  if (!(error instanceof ValidationError)) throw error;
  return renderBoard(context, scope, { form, name: nameOf(context), error: (error.fields.name ?? [error.message]).join(', ') });
}

export async function handleNewBoard(context: PageContext, scope: BoardScope): Promise<PageOutcome> {
  if (!scope.mayAdminBoards) throw new ForbiddenError();
  try {
    const board = await createBoard(context.deps, scope.parent, nameOf(context));
    return redirect(`${scope.root}/${board.id}`, `Created the board ${board.name}.`);
  } catch (error) {
    return refused(context, scope, 'new', error);
  }
}

export async function handleEditBoard(context: PageContext, scope: BoardScope): Promise<PageOutcome> {
  if (!scope.mayAdminBoards) throw new ForbiddenError();
  const board = await findBoard(context.deps, scope.parent, Number(context.match.board));
  if (context.match.action === 'delete') {
    await deleteBoard(context.deps, board);
    return redirect(scope.root, `Deleted the board ${board.name}.`);
  }
  try {
    const renamed = await updateBoard(context.deps, board, { name: nameOf(context) });
    return redirect(`${scope.root}/${board.id}`, `Renamed the board to ${renamed.name}.`);
  } catch (error) {
    return refused(context, scope, 'rename', error);
  }
}
