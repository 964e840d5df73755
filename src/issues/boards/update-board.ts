// Renaming a board and hiding or showing its Open and Closed lists (PUT …/boards/:board_id).
import type { Deps } from '../../platform/deps.js';
import type { BoardRow } from './finder.js';
import { checkBoardName } from './create-board.js';

export interface UpdateBoardInput {
  name?: string;
  hideBacklogList?: boolean;
  hideClosedList?: boolean;
}

export async function updateBoard(deps: Deps, board: BoardRow, input: UpdateBoardInput): Promise<BoardRow> {
  const changes: Record<string, unknown> = { updated_at: deps.clock.now() };
  if (input.name !== undefined) changes.name = checkBoardName(input.name);
  if (input.hideBacklogList !== undefined) changes.hide_backlog_list = input.hideBacklogList ? 1 : 0;
  if (input.hideClosedList !== undefined) changes.hide_closed_list = input.hideClosedList ? 1 : 0;
  return deps.db.updateTable('boards').set(changes).where('id', '=', board.id).returningAll().executeTakeFirstOrThrow();
}
