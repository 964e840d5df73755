// Deleting a board takes its lists with it (the foreign key cascades); issues and labels stay.
import type { Deps } from '../../platform/deps.js';
import type { BoardRow } from './finder.js';

export async function deleteBoard(deps: Deps, board: BoardRow): Promise<void> {
  await deps.db.deleteFrom('boards').where('id', '=', board.id).execute();
}
