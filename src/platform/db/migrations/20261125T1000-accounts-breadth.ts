import { sql, type Kysely } from 'kysely';
import { TIME, isPostgres, withId } from './_columns.js';

// Editing, moving and deleting projects, groups and users (issue 15): project features and topics,
// stars, avatars, old paths that still answer (GitLab's redirect_routes), users' extra e-mail
// addresses with their confirmation, the ghost user, activity days, and groups marked for deletion.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  // ProjectFeature access levels as GitLab's API names them: 'disabled' | 'private' | 'enabled'.
  await db.schema.alterTable('projects').addColumn('issues_access_level', 'text', (c) => c.notNull().defaultTo('enabled')).execute();
  await db.schema.alterTable('projects').addColumn('repository_access_level', 'text', (c) => c.notNull().defaultTo('enabled')).execute();
  await db.schema.alterTable('projects').addColumn('star_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('avatar', 'text').execute();

  await db.schema.alterTable('namespaces').addColumn('avatar', 'text').execute();
  // Set when DELETE /groups/:id accepts the deletion; the job removes the group and what it holds.
  await db.schema.alterTable('namespaces').addColumn('deletion_scheduled_at', TIME).execute();

  // 'human' or 'ghost' (GitLab's user_type; the ghost user holds a deleted user's contributions).
  await db.schema.alterTable('users').addColumn('user_type', 'text', (c) => c.notNull().defaultTo('human')).execute();
  // YYYY-MM-DD of the last day the user was seen (GitLab's last_activity_on).
  await db.schema.alterTable('users').addColumn('last_activity_on', 'text').execute();
  await db.schema.createIndex('users_last_activity_on').on('users').columns(['last_activity_on', 'id']).execute();

  // A deleted user's comments pass to the ghost user (or go): found by author.
  await db.schema.createIndex('notes_author').on('notes').columns(['author_id', 'id']).execute();

  await withId(db, db.schema.createTable('users_star_projects'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    // Two stars racing: the database keeps one, and star_count moves once.
    .addUniqueConstraint('users_star_projects_user_project', ['user_id', 'project_id'])
    .execute();
  await db.schema.createIndex('users_star_projects_project').on('users_star_projects').columns(['project_id', 'id']).execute();

  // An old full path of a project or namespace that still leads to it, until something takes the path.
  await withId(db, db.schema.createTable('redirect_routes'))
    .addColumn('source_type', 'text', (c) => c.notNull()) // 'Project' | 'Namespace'
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('path_lower', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('redirect_routes_source').on('redirect_routes').columns(['source_type', 'source_id']).execute();

  // Secondary addresses; the primary one stays on users. Unconfirmed until the confirmation link
  // (whose SHA-256 digest is kept) is followed, or an administrator skips the confirmation.
  await withId(db, db.schema.createTable('emails'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('confirmed_at', TIME)
    .addColumn('confirmation_digest', 'text')
    .addColumn('confirmation_sent_at', TIME)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emails_user').on('emails').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('emails_confirmation').on('emails').columns(['confirmation_digest']).execute();
  // Every user's primary address is one of their addresses, confirmed (GitLab adds it on confirmation).
  await sql`insert into emails (user_id, email, email_lower, confirmed_at, created_at, updated_at)
    select id, email, email_lower, created_at, created_at, created_at from users`.execute(db);

  // Project and group avatars (GitLab's uploads), kept in the database so every node serves them.
  await withId(db, db.schema.createTable('avatars'))
    .addColumn('model_type', 'text', (c) => c.notNull()) // 'Project' | 'Namespace'
    .addColumn('model_id', 'bigint', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('avatars_model', ['model_type', 'model_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
