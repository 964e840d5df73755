import type { Kysely } from 'kysely';
import { TIME } from './_columns.js';

// The fingerprint of the secrets file the database was initialised with (one row). A node whose
// secrets.json differs refuses to start: on several nodes it would sign OpenID Connect tokens with
// another key and fail to decrypt what the others stored (docs/operations/several-nodes.md).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('instance_secrets_fingerprint')
    .addColumn('id', 'integer', (c) => c.primaryKey()) // always 1
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('recorded_at', TIME, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
