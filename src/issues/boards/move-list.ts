// Reordering a board's label lists (GitLab's Boards::Lists::MoveService): the list takes the new
// position and those between shift by one. A position outside the board, or the one it has, is
// refused as GitLab refuses it ("List could not be moved!").
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import type { BoardRow } from './finder.js';
import type { ListWithLabel } from './finder.js';
import { BoardListError, CANNOT_MOVE } from './list-errors.js';

export async function moveList(deps: Deps, board: BoardRow, moving: ListWithLabel, position: number): Promise<ListWithLabel> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const lists = await trx.selectFrom('board_lists').selectAll().where('board_id', '=', board.id).orderBy('position').orderBy('id').execute();
    const from = lists.findIndex((list) => Number(list.id) === Number(moving.list.id));
    if (from < 0 || position < 0 || position >= lists.length || position === from) throw new BoardListError(CANNOT_MOVE);
    const [list] = lists.splice(from, 1);
    lists.splice(position, 0, list!);
    // Renumbered 0, 1, … (gaps left by deleted labels close here too); one row at a time, lists are few.
    for (const [index, row] of lists.entries()) {
      if (Number(row.position) !== index) await trx.updateTable('board_lists').set({ position: index, updated_at: now }).where('id', '=', row.id).execute();
    }
    return { list: { ...list!, position, updated_at: now }, label: moving.label };
  });
}
