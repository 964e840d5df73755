// A job's log (GitLab's trace): appended by the runner with PATCH /jobs/:id/trace, read through the API.
import type { Executor } from '../../platform/db/database.js';

export async function readTrace(db: Executor, buildId: number): Promise<Buffer> {
  const row = await db.selectFrom('ci_build_traces').select('data').where('build_id', '=', buildId).executeTakeFirst();
  return row ? Buffer.from(row.data) : Buffer.alloc(0);
}
