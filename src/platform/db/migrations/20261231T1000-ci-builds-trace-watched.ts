import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// Until when a running job's log counts as watched (GitLab's trace "being watched" flag, kept for 10 s
// after a viewer asks for the log): the runner's trace updates are then answered with a 3 s
// X-GitLab-Trace-Update-Interval instead of 60 s. In the row, not in a node's memory, because the
// viewer's request and the runner's may reach different nodes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ci_builds').addColumn('trace_watched_until', TIME).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
