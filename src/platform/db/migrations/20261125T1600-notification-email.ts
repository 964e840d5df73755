import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Notification e-mail (issue 17): explicit subscriptions to an issue (GitLab's subscriptions table:
// subscribed 1 = subscribed, 0 = unsubscribed, which also silences a participant), and the outbox of
// composed messages with their delivery state.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('subscriptions'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('subscribable_type', 'text', (c) => c.notNull())
    .addColumn('subscribable_id', 'bigint', (c) => c.notNull())
    .addColumn('subscribed', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('subscriptions_subscribable_user', ['subscribable_type', 'subscribable_id', 'user_id'])
    .execute();

  // One row per message to one recipient. `state`: queued → sent, or dead after the last try.
  await withId(db, db.schema.createTable('email_outbox'))
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    // Further headers (threading, X-GitLab-*, List-*) as a JSON object.
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    // The .eml file written without an SMTP server (KILN_SMTP_URL unset), relative to <data>/mail.
    .addColumn('file', 'text')
    // The job that composed it: a composing job that runs again finds its messages already queued.
    .addColumn('cause_job_id', 'bigint')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addColumn('sent_at', TIME)
    .execute();
  await db.schema.createIndex('email_outbox_cause_job').on('email_outbox').column('cause_job_id').execute();
  await db.schema.createIndex('email_outbox_state').on('email_outbox').columns(['state', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
