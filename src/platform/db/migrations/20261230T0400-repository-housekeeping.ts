import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// Repository housekeeping (GitLab's Repositories::HousekeepingService): the pushes since the repository
// was last optimised, counted in the database so that every node sees one count, and the lease that
// lets one housekeeping run at a time per repository (its end; none when nothing holds it).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repositories').addColumn('pushes_since_gc', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('repositories').addColumn('housekeeping_leased_until', TIME).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
