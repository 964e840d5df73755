// The rows of LFS objects and the projects that may serve them (GitLab's lfs_objects and
// lfs_objects_projects): one row per oid for the instance, one link per (project, object).
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';

export interface LfsObjectRow {
  oid: string;
  size: number;
}

const CHUNK = 500;

/** Which of `oids` the project may serve, with their sizes. */
export async function linkedObjects(deps: Deps, projectId: number, oids: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const unique = [...new Set(oids)];
  for (let start = 0; start < unique.length; start += CHUNK) {
    const rows = await deps.db
      .selectFrom('lfs_objects_projects')
      .innerJoin('lfs_objects', 'lfs_objects.id', 'lfs_objects_projects.lfs_object_id')
      .select(['lfs_objects.oid', 'lfs_objects.size'])
      .where('lfs_objects_projects.project_id', '=', projectId)
      .where('lfs_objects.oid', 'in', unique.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) found.set(row.oid, Number(row.size));
  }
  return found;
}

/** Record the object (once for the instance) and let the project serve it; both idempotent. */
export async function linkObject(deps: Deps, projectId: number, oid: string, size: number): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    await trx.insertInto('lfs_objects').values({ oid, size, created_at: now }).onConflict((conflict) => conflict.column('oid').doNothing()).execute();
    const object = await trx.selectFrom('lfs_objects').select('id').where('oid', '=', oid).executeTakeFirstOrThrow();
    await trx
      .insertInto('lfs_objects_projects')
      .values({ lfs_object_id: object.id, project_id: projectId, created_at: now })
      .onConflict((conflict) => conflict.columns(['project_id', 'lfs_object_id']).doNothing())
      .execute();
  });
}

/** The bytes of LFS content the project links (GitLab's project_statistics.lfs_objects_size). */
export async function projectLfsSize(deps: Deps, projectId: number): Promise<number> {
  const row = await deps.db
    .selectFrom('lfs_objects_projects')
    .innerJoin('lfs_objects', 'lfs_objects.id', 'lfs_objects_projects.lfs_object_id')
    .select((eb) => eb.fn.sum<number | string | null>('lfs_objects.size').as('total'))
    .where('lfs_objects_projects.project_id', '=', projectId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Sizes as Rails' number_to_human_size(precision: 2) writes them in GitLab's size-limit messages. */
export function humanSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Two significant digits, insignificant zeros dropped, thousands with a comma.
  return `${Number(value.toPrecision(2)).toLocaleString('en-US', { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/**
 * The refusal of an upload of `adding` bytes that would take the project past KILN_LFS_MAX_PROJECT_BYTES
 * (GitLab's repository size limit message for LFS pushes), or null when it fits or there is no limit.
 */
export async function projectLimitRefusal(deps: Deps, projectId: number, adding: number): Promise<string | null> {
  const limit = deps.config.lfsMaxProjectBytes;
  if (!limit || adding <= 0) return null;
  const total = (await projectLfsSize(deps, projectId)) + adding;
  if (total <= limit) return null;
  return `Your push has been rejected, because this repository has exceeded its size limit of ${humanSize(limit)} by ${humanSize(total - limit)}. Please contact your GitLab administrator for more information.`;
}
