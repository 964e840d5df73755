// Statements the query builder cannot say alone: typed parameters in an INSERT … SELECT's select list
// (PostgreSQL would take an untyped parameter there as text).
import { sql } from 'kysely';
import type { DbTransaction } from '../platform/db/database.js';

/** The upstream's LFS objects become the fork's too (GitLab links them to the fork when forking). */
export async function linkUpstreamLfsObjects(trx: DbTransaction, upstreamId: number, forkId: number, now: number): Promise<void> {
  await trx.insertInto('lfs_objects_projects')
    .columns(['lfs_object_id', 'project_id', 'created_at'])
    .expression(trx.selectFrom('lfs_objects_projects').select(['lfs_object_id', sql<number>`cast(${forkId} as bigint)`.as('project_id'), sql<number>`cast(${now} as bigint)`.as('created_at')]).where('project_id', '=', upstreamId))
    .execute();
}
