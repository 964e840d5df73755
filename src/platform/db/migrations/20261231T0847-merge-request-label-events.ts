import { sql, type Kysely } from 'kysely';
import { TIME, isPostgres, withId } from './_columns.js';

// Label events of merge requests (GitLab's resource_label_events has an issue_id and a
// merge_request_id, one of them set), as resource_state_events and resource_milestone_events have.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.alterTable('resource_label_events').alterColumn('issue_id', (c) => c.dropNotNull()).execute();
    await db.schema.alterTable('resource_label_events').addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade')).execute();
  } else {
    // SQLite cannot drop a NOT NULL: the table is made again and its rows copied, ids kept (a copy
    // left by an attempt that died half-way is made again).
    await db.schema.dropTable('resource_label_events_next').ifExists().execute();
    await withId(db, db.schema.createTable('resource_label_events_next'))
      .addColumn('issue_id', 'bigint', (c) => c.references('issues.id').onDelete('cascade'))
      .addColumn('merge_request_id', 'bigint', (c) => c.references('merge_requests.id').onDelete('cascade'))
      .addColumn('label_id', 'bigint', (c) => c.references('labels.id').onDelete('set null'))
      .addColumn('user_id', 'bigint')
      .addColumn('action', 'text', (c) => c.notNull()) // 'add' | 'remove'
      .addColumn('created_at', TIME, (c) => c.notNull())
      .execute();
    await sql`insert into resource_label_events_next (id, issue_id, label_id, user_id, action, created_at) select id, issue_id, label_id, user_id, action, created_at from resource_label_events`.execute(db);
    await db.schema.dropTable('resource_label_events').execute();
    await sql`alter table resource_label_events_next rename to resource_label_events`.execute(db);
    await db.schema.createIndex('resource_label_events_issue').on('resource_label_events').columns(['issue_id', 'id']).execute();
  }
  await db.schema.createIndex('resource_label_events_merge_request').on('resource_label_events').columns(['merge_request_id', 'id']).execute();
}
