import type { Kysely } from 'kysely';

// Settings GitLab documents for projects and groups whose features Kiln does not have (issue 38): one
// JSON object per row, holding only what a client set (absent attributes show GitLab's defaults, kept
// in the declarative table src/accounts/stored-settings.ts). A column per attribute would be ~80
// columns of values nothing reads; the rows stay as narrow as the queries that read them need.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['projects', 'namespaces']) {
    await db.schema.alterTable(table).addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
