// A label list at the end of a board (GitLab's Boards::Lists::CreateService): the label must be one
// the board's project or group sees, and a board has one list per label.
import type { Deps } from '../../platform/deps.js';
import { availableLabelsQuery } from '../../labels/api.js';
import { inTransaction } from '../../platform/db/database.js';
import type { BoardRow } from './finder.js';
import type { BoardParent, ListWithLabel } from './finder.js';
import { BoardListError, LABEL_NOT_FOUND, LABEL_TAKEN } from './list-errors.js';

export async function createList(deps: Deps, parent: BoardParent, board: BoardRow, labelId: number): Promise<ListWithLabel> {
  const label = await (await availableLabelsQuery(deps, 'project' in parent ? { project: parent.project } : { group: parent.group })).where('id', '=', labelId).executeTakeFirst();
  if (!label) throw new BoardListError(LABEL_NOT_FOUND);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const taken = await trx.selectFrom('board_lists').select('id').where('board_id', '=', board.id).where('label_id', '=', labelId).executeTakeFirst();
    if (taken) throw new BoardListError(LABEL_TAKEN);
    const last = await trx.selectFrom('board_lists').select((eb) => eb.fn.max('position').as('max')).where('board_id', '=', board.id).executeTakeFirst();
    const position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    // The unique (board, label) index settles two racing creates: the loser's insert fails.
    const list = await trx.insertInto('board_lists').values({ board_id: Number(board.id), label_id: labelId, position, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow();
    return { list, label };
  });
}
