import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Deploy tokens (issue 37): credentials of a project or of a group (then of every project below it)
// for git over HTTP, stored as the SHA-256 digest of the token, with the user name they go with.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('deploy_tokens'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Given by the creator, or `gitlab+deploy-token-<id>` set in the creating transaction.
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull())
    // Space-separated: read_repository write_repository read_registry …
    .addColumn('scopes', 'text', (c) => c.notNull())
    // Exactly one of the two is set.
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('creator_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', TIME)
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deploy_tokens_digest').on('deploy_tokens').column('token_digest').unique().execute();
  await db.schema.createIndex('deploy_tokens_project').on('deploy_tokens').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('deploy_tokens_group').on('deploy_tokens').columns(['group_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
