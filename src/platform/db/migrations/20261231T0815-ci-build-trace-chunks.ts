import type { Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// Job logs in fixed 128 KiB chunks (GitLab's ci_build_trace_chunks), numbered from 0 for each job, so
// that an append rewrites only the last chunk instead of the whole log (issue 39). Every chunk but the
// last is full. The logs kept whole in ci_build_traces move into chunks, a job at a time, and that
// table goes.
const CHUNK = 128 * 1024;

export async function up(db: Kysely<any>): Promise<void> {
  const binary = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema
    .createTable('ci_build_trace_chunks')
    .addColumn('build_id', 'bigint', (c) => c.notNull().references('ci_builds.id').onDelete('cascade'))
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('data', binary, (c) => c.notNull())
    .addPrimaryKeyConstraint('ci_build_trace_chunks_pkey', ['build_id', 'chunk_index'])
    .execute();

  // One log in memory at a time (at most the 16 MiB limit), in build order.
  let after = -1;
  for (;;) {
    const row = await db.selectFrom('ci_build_traces').select(['build_id', 'data']).where('build_id', '>', after).orderBy('build_id').limit(1).executeTakeFirst();
    if (!row) break;
    after = Number(row.build_id);
    const data = Buffer.from(row.data as Uint8Array);
    for (let index = 0; index * CHUNK < data.length; index += 1) {
      await db.insertInto('ci_build_trace_chunks').values({ build_id: after, chunk_index: index, data: data.subarray(index * CHUNK, (index + 1) * CHUNK) }).execute();
    }
  }
  await db.schema.dropTable('ci_build_traces').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
