import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { TIME, withId } from './_columns.js';

// CI/CD variables and pipeline trigger tokens (issue 39). One table holds the instance's variables
// (no project, no group), a group's and a project's, as GitLab's ci_instance_variables,
// ci_group_variables and ci_variables do; values are sealed with the instance key (AES-256-GCM),
// never stored in clear. A key is unique per owner and environment scope. Trigger tokens are stored
// as SHA-256 digests and shown once.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ci_variables'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    // env_var or file.
    .addColumn('variable_type', 'text', (c) => c.notNull().defaultTo('env_var'))
    .addColumn('protected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('masked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('environment_scope', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('description', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  // The same expression on both dialects: an instance variable has neither owner.
  await sql`CREATE UNIQUE INDEX ci_variables_owner_key ON ci_variables (coalesce(project_id, 0), coalesce(group_id, 0), key, environment_scope)`.execute(db);
  await db.schema.createIndex('ci_variables_group').on('ci_variables').column('group_id').execute();

  await withId(db, db.schema.createTable('ci_triggers'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('token_digest', 'text', (c) => c.notNull())
    // What GitLab shows of a token after it was made: its first four characters.
    .addColumn('token_start', 'text', (c) => c.notNull())
    .addColumn('last_used', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_triggers_token').on('ci_triggers').column('token_digest').unique().execute();
  await db.schema.createIndex('ci_triggers_project').on('ci_triggers').column('project_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
