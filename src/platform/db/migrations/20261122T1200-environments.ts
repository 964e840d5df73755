import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('environments'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('external_url', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    // GitLab validates both as unique per project; the database holds the invariant for racing nodes.
    .addUniqueConstraint('environments_project_name', ['project_id', 'name'])
    .addUniqueConstraint('environments_project_slug', ['project_id', 'slug'])
    .execute();
  await db.schema.createIndex('environments_project_id').on('environments').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('environments_project_state').on('environments').columns(['project_id', 'state', 'id']).execute();

  await withId(db, db.schema.createTable('deployments'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment_id', 'bigint', (c) => c.notNull().references('environments.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addColumn('finished_at', TIME)
    .addUniqueConstraint('deployments_project_iid', ['project_id', 'iid'])
    .execute();
  await db.schema.createIndex('deployments_project_id').on('deployments').columns(['project_id', 'id']).execute();
  // Serves last_deployment: the highest id with status success per environment.
  await db.schema.createIndex('deployments_environment_status').on('deployments').columns(['environment_id', 'status', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
