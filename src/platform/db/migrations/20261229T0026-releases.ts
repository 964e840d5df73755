import { sql, type Kysely } from 'kysely';
import { isPostgres, TIME, withId } from './_columns.js';

// Releases (issue 38; GitLab's releases, release_links, milestone_releases and release evidences): one
// release per (project, tag); its asset links unique by name and by URL within the release; the
// milestones it is associated with; evidence snapshots (the summary JSON and its SHA-256). Webhooks fire
// Release Hooks: releases_events becomes a column the listeners filter on, taken from the stored flags.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('releases'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('tag_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('sha', 'text')
    .addColumn('author_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('released_at', TIME, (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('releases_project_tag').on('releases').columns(['project_id', 'tag_name']).unique().execute();
  await db.schema.createIndex('releases_project_released').on('releases').columns(['project_id', 'released_at', 'id']).execute();
  await db.schema.createIndex('releases_project_created').on('releases').columns(['project_id', 'created_at', 'id']).execute();

  await withId(db, db.schema.createTable('release_links'))
    .addColumn('release_id', 'bigint', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('filepath', 'text')
    .addColumn('link_type', 'text', (c) => c.notNull().defaultTo('other'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('release_links_name').on('release_links').columns(['release_id', 'name']).unique().execute();
  await db.schema.createIndex('release_links_url').on('release_links').columns(['release_id', 'url']).unique().execute();

  await db.schema.createTable('release_milestones')
    .addColumn('release_id', 'bigint', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('milestone_id', 'bigint', (c) => c.notNull().references('milestones.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('release_milestones_pair').on('release_milestones').columns(['release_id', 'milestone_id']).unique().execute();
  await db.schema.createIndex('release_milestones_milestone').on('release_milestones').column('milestone_id').execute();

  await withId(db, db.schema.createTable('release_evidences'))
    .addColumn('release_id', 'bigint', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('summary_sha', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('release_evidences_release').on('release_evidences').columns(['release_id', 'id']).execute();

  await db.schema.alterTable('web_hooks').addColumn('releases_events', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  const stored = isPostgres(db)
    ? sql`case when (flags::json ->> 'releases_events') = 'true' then 1 else 0 end`
    : sql`case when json_extract(flags, '$.releases_events') = 1 then 1 else 0 end`;
  await sql`update web_hooks set releases_events = ${stored}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
