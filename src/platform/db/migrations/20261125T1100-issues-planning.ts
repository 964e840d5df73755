import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { TIME, withId } from './_columns.js';

// Planning on issues (issue 15): project and group labels and their links to issues, assignees,
// project and group milestones, due dates, the label history of an issue (GitLab's
// resource_label_events), and discussions (notes carry the id of the thread they belong to).
export async function up(db: Kysely<any>): Promise<void> {
  // A label belongs to a project or to a group (one of the two ids is set), as GitLab's labels table.
  await withId(db, db.schema.createTable('labels'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('priority', 'integer')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    // Titles are unique per project and per group (NULLs never collide, so each constraint binds one kind).
    .addUniqueConstraint('labels_project_title', ['project_id', 'title'])
    .addUniqueConstraint('labels_group_title', ['group_id', 'title'])
    .execute();

  await withId(db, db.schema.createTable('label_links'))
    .addColumn('label_id', 'bigint', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('label_links_issue_label', ['issue_id', 'label_id'])
    .execute();
  await db.schema.createIndex('label_links_label').on('label_links').columns(['label_id', 'issue_id']).execute();

  await db.schema
    .createTable('issue_assignees')
    .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('issue_assignees_pk', ['issue_id', 'user_id'])
    .execute();
  // assigned_to_me and assignee_id filters start from the user.
  await db.schema.createIndex('issue_assignees_user').on('issue_assignees').columns(['user_id', 'issue_id']).execute();

  // A milestone belongs to a project or to a group; iids count per project or per group.
  await withId(db, db.schema.createTable('milestones'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active')) // 'active' | 'closed'
    .addColumn('start_date', 'text') // YYYY-MM-DD
    .addColumn('due_date', 'text') // YYYY-MM-DD
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('milestones_project_iid', ['project_id', 'iid'])
    .addUniqueConstraint('milestones_group_iid', ['group_id', 'iid'])
    .addUniqueConstraint('milestones_project_title', ['project_id', 'title'])
    .addUniqueConstraint('milestones_group_title', ['group_id', 'title'])
    .execute();

  await db.schema.alterTable('issues').addColumn('milestone_id', 'bigint', (c) => c.references('milestones.id').onDelete('set null')).execute();
  await db.schema.alterTable('issues').addColumn('due_date', 'text').execute(); // YYYY-MM-DD
  await db.schema.alterTable('issues').addColumn('discussion_locked', 'integer').execute(); // null: never set, as GitLab
  await db.schema.createIndex('issues_milestone').on('issues').columns(['milestone_id', 'id']).execute();
  // GET /issues (created_by_me, the default scope) starts from the author.
  await db.schema.createIndex('issues_author').on('issues').columns(['author_id', 'id']).execute();

  // Added and removed labels of an issue, in order (GitLab's resource_label_events). The label may be
  // deleted later: the event stays with a null label, as in GitLab.
  await withId(db, db.schema.createTable('resource_label_events'))
    .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('label_id', 'bigint', (c) => c.references('labels.id').onDelete('set null'))
    .addColumn('user_id', 'bigint')
    .addColumn('action', 'text', (c) => c.notNull()) // 'add' | 'remove'
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resource_label_events_issue').on('resource_label_events').columns(['issue_id', 'id']).execute();

  // Every note belongs to a discussion: its own (an individual note, type null) or a thread
  // (type 'DiscussionNote'), identified by 40 hexadecimal digits as in GitLab.
  await db.schema.alterTable('notes').addColumn('discussion_id', 'text').execute();
  await db.schema.alterTable('notes').addColumn('type', 'text').execute();
  for (;;) {
    const rows = await db.selectFrom('notes').select('id').where('discussion_id', 'is', null).limit(500).execute();
    for (const row of rows) {
      await db.updateTable('notes').set({ discussion_id: randomBytes(20).toString('hex') }).where('id', '=', row.id).execute();
    }
    if (rows.length < 500) break;
  }
  await db.schema.createIndex('notes_discussion').on('notes').columns(['noteable_type', 'noteable_id', 'discussion_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
