// What a repository storage move moves: a group's wiki or a snippet's repository (GitLab's
// RepositoryStorageMovable, included by Groups:: and Snippets::RepositoryStorageMove). One state
// machine, one job and one recovery serve both; a kind names its moves table, the column of its
// container there, its jobs and its read-only flag.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { GroupRepositoryStorageMovesTable, StorageMoveColumns } from '../platform/db/tables/repositories.js';

export type MoveContainerType = 'group' | 'snippet';

export interface MoveKind {
  /** The repository's container_type, the push leases' container_type and GitLab's error key. */
  type: MoveContainerType;
  table: 'group_repository_storage_moves' | 'snippet_repository_storage_moves';
  column: 'group_id' | 'snippet_id';
  moveJob: string;
  bulkJob: string;
  /** GitLab's `repository_type` in "Timeout waiting for … repository pushes". */
  label: string;
  defaultBranch?: string;
}

export const GROUP_MOVES: MoveKind = {
  type: 'group',
  table: 'group_repository_storage_moves',
  column: 'group_id',
  moveJob: 'repositories.storage_move',
  bulkJob: 'repositories.bulk_storage_moves',
  label: 'wiki',
};

export const SNIPPET_MOVES: MoveKind = {
  type: 'snippet',
  table: 'snippet_repository_storage_moves',
  column: 'snippet_id',
  moveJob: 'repositories.snippet_storage_move',
  bulkJob: 'repositories.bulk_snippet_storage_moves',
  label: 'snippet',
  defaultBranch: 'main',
};

export const MOVE_KINDS: readonly MoveKind[] = [GROUP_MOVES, SNIPPET_MOVES];

/** A move of either kind, its container under one name. */
export type MoveRow = Omit<Selectable<StorageMoveColumns>, 'id'> & { id: number; container_id: number };

// The two moves tables have the same columns but the container's, so the queries below are typed
// against the group table and name the kind's table and column at run time.
const tableOf = (kind: MoveKind) => kind.table as 'group_repository_storage_moves';
const columnOf = (kind: MoveKind) => kind.column as 'group_id';

export function selectMoves(db: Executor, kind: MoveKind) {
  return db
    .selectFrom(tableOf(kind))
    .select(['id', `${columnOf(kind)} as container_id` as const, 'state', 'source_storage_name', 'destination_storage_name', 'error_message', 'created_at', 'updated_at']);
}

export function updateMoves(db: Executor, kind: MoveKind) {
  return db.updateTable(tableOf(kind));
}

export function insertMove(db: Executor, kind: MoveKind, containerId: number, values: Omit<Insertable<GroupRepositoryStorageMovesTable>, 'group_id'>) {
  return db
    .insertInto(tableOf(kind))
    .values({ ...values, [columnOf(kind)]: containerId } as Insertable<GroupRepositoryStorageMovesTable>)
    .returning('id');
}

export function normalise(row: { id: number | string; container_id: number | string } & Omit<MoveRow, 'id' | 'container_id'>): MoveRow {
  return { ...row, id: Number(row.id), container_id: Number(row.container_id) };
}

export async function loadMove(db: Executor, kind: MoveKind, id: number): Promise<MoveRow | undefined> {
  const row = await selectMoves(db, kind).where('id', '=', id).executeTakeFirst();
  return row ? normalise(row) : undefined;
}

/** Whether the container is read-only (a move holds it). */
export async function isReadOnly(db: Executor, kind: Pick<MoveKind, 'type'>, id: number): Promise<boolean> {
  const row = kind.type === 'group'
    ? await db.selectFrom('namespaces').select('read_only as flag').where('id', '=', id).executeTakeFirst()
    : await db.selectFrom('snippets').select('repository_read_only as flag').where('id', '=', id).executeTakeFirst();
  return Number(row?.flag ?? 0) === 1;
}

/** Set or clear the container's read-only flag; with `onlyIfWritable`, whether it was writable (and is now locked). */
export async function setReadOnly(db: Executor, kind: MoveKind, id: number, value: boolean, now: number, onlyIfWritable = false): Promise<boolean> {
  const result = kind.type === 'group'
    ? await db.updateTable('namespaces').set({ read_only: value ? 1 : 0, updated_at: now }).where('id', '=', id).$if(onlyIfWritable, (q) => q.where('read_only', '=', 0)).executeTakeFirst()
    // A snippet's updated_at is its content's time (the API shows it): the flag leaves it alone.
    : await db.updateTable('snippets').set({ repository_read_only: value ? 1 : 0 }).where('id', '=', id).$if(onlyIfWritable, (q) => q.where('repository_read_only', '=', 0)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
