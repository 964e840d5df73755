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
