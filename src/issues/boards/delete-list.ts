// Removing a label list (GitLab's Boards::Lists::DestroyService): the lists after it move up one.
// The label and its issues stay.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import type { BoardRow } from './finder.js';
import type { ListWithLabel } from './finder.js';

export async function deleteList(deps: Deps, board: BoardRow, doomed: ListWithLabel): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await trx.deleteFrom('board_lists').where('id', '=', doomed.list.id).execute();
    await trx.updateTable('board_lists').set((eb) => ({ position: eb('position', '-', 1), updated_at: deps.clock.now() })).where('board_id', '=', board.id).where('position', '>', Number(doomed.list.position)).execute();
  });
}
