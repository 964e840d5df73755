import { sql, type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Label subscriptions (issues 36 and 38, GitLab's subscriptions rows of type Label). A row is a
// subscription: unsubscribing deletes it, since a label has no participants an explicit "not
// subscribed" would have to silence. `project_id` null: the whole label (a group label subscribed
// on its group, or any label in every project); set: only in that project (a label subscribed from
// a project, GitLab's project-scoped subscription). One row per user, label and scope: the unique
// index reads a null project as 0, because two nulls are never equal in a unique constraint.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('label_subscriptions'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label_id', 'bigint', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await sql`create unique index label_subscriptions_user_label_scope on label_subscriptions (user_id, label_id, coalesce(project_id, 0))`.execute(db);
  // Recipients: the subscribers of an issue's labels.
  await db.schema.createIndex('label_subscriptions_label').on('label_subscriptions').columns(['label_id', 'project_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
