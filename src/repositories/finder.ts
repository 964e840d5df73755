// Reads of storage moves of either kind, newest first (GitLab orders them by created_at DESC), the
// groups of group moves; and how many repositories each shard holds.
import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { normalise, selectMoves, type MoveKind, type MoveRow } from './move-kinds.js';

export interface MoveFilter {
  /** Only the moves of this group or snippet. */
  containerId?: number;
}

export function listMovesQuery(deps: Deps, kind: MoveKind, filter: MoveFilter = {}) {
  let query = selectMoves(deps.db, kind);
  if (filter.containerId !== undefined) query = query.where(kind.column as 'group_id', '=', filter.containerId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/** A page of moves as rows (what ctx.paginate or a limit gives back). */
export function moveRows(rows: Parameters<typeof normalise>[0][]): MoveRow[] {
  return rows.map(normalise);
}

/** One move; through its container when one is given (a move of another one is "404 Not found"). */
export async function findMove(deps: Deps, kind: MoveKind, id: number, containerId?: number): Promise<MoveRow> {
  let query = selectMoves(deps.db, kind).where('id', '=', id);
  if (containerId !== undefined) query = query.where(kind.column as 'group_id', '=', containerId);
  const move = await query.executeTakeFirst();
  if (!move) throw new RecordNotFoundError();
  return normalise(move);
}

export type MoveWithGroup = MoveRow & { group_name: string; group_full_path: string };

/** Group moves with their group's name and path (one query for the page). */
export async function withGroups(deps: Deps, moves: MoveRow[]): Promise<MoveWithGroup[]> {
  const ids = [...new Set(moves.map((move) => move.container_id))];
  const groups = ids.length ? await deps.db.selectFrom('namespaces').select(['id', 'name', 'full_path']).where('id', 'in', ids).execute() : [];
  const byId = new Map(groups.map((group) => [Number(group.id), group]));
  return moves.map((move) => ({ ...move, group_name: byId.get(move.container_id)?.name ?? '', group_full_path: byId.get(move.container_id)?.full_path ?? '' }));
}

/** How many repositories each shard holds (shards without any are absent). */
export async function repositoryCountsByShard(deps: Deps): Promise<Map<string, number>> {
  const rows = await deps.db.selectFrom('repositories').select(['shard', deps.db.fn.countAll<number>().as('n')]).groupBy('shard').execute();
  return new Map(rows.map((row) => [row.shard, Number(row.n)]));
}
