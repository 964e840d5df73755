// Reads of storage moves, newest first (GitLab orders them by created_at DESC), with their group; and
// how many repositories each shard holds.
import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError } from '../platform/errors.js';

function movesWithGroup(deps: Deps) {
  return deps.db
    .selectFrom('group_repository_storage_moves as m')
    .innerJoin('namespaces as n', 'n.id', 'm.group_id')
    .select(['m.id', 'm.group_id', 'm.state', 'm.source_storage_name', 'm.destination_storage_name', 'm.error_message', 'm.created_at', 'm.updated_at', 'n.name as group_name', 'n.full_path as group_full_path']);
}

export type MoveWithGroup = Awaited<ReturnType<ReturnType<typeof movesWithGroup>['executeTakeFirstOrThrow']>>;

export interface MoveFilter {
  groupId?: number;
}

export function listMovesQuery(deps: Deps, filter: MoveFilter = {}) {
  let query = movesWithGroup(deps);
  if (filter.groupId !== undefined) query = query.where('m.group_id', '=', filter.groupId);
  return query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc');
}

/** One move; through its group when one is given (a move of another group is "404 Not found"). */
export async function findMove(deps: Deps, id: number, groupId?: number): Promise<MoveWithGroup> {
  let query = movesWithGroup(deps).where('m.id', '=', id);
  if (groupId !== undefined) query = query.where('m.group_id', '=', groupId);
  const move = await query.executeTakeFirst();
  if (!move) throw new RecordNotFoundError();
  return move;
}

/** How many repositories each shard holds (shards without any are absent). */
export async function repositoryCountsByShard(deps: Deps): Promise<Map<string, number>> {
  const rows = await deps.db.selectFrom('repositories').select(['shard', deps.db.fn.countAll<number>().as('n')]).groupBy('shard').execute();
  return new Map(rows.map((row) => [row.shard, Number(row.n)]));
}
