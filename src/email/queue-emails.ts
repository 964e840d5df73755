// Queue composed messages in the caller's transaction: the rows and the job that delivers them commit
// together with whatever caused them, or not at all.
import type { Deps } from '../platform/deps.js';
import type { DbTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { readApplicationSettings } from '../application-settings/api.js';

export const JOB_DELIVER_EMAILS = 'email.deliver';

export interface OutgoingEmail {
  /** `"Name" <address>` or an address. */
  from: string;
  to: string;
  userId: number | null;
  subject: string;
  /** Without angle brackets: `issue_12@kiln.example.com`. */
  messageId: string;
  headers: Record<string, string>;
  text: string;
  /** Dropped when html_emails_enabled is off: the message is then sent as plain text only. */
  html: string;
}

/** Every message sent by the worker after commit; `causeJobId` marks messages a job composed. */
export async function queueEmails(deps: Deps, trx: DbTransaction, emails: OutgoingEmail[], causeJobId: number | null = null): Promise<number[]> {
  if (emails.length === 0) return [];
  const now = deps.clock.now();
  // Read in the caller's transaction: the setting as it is when the message is composed, as GitLab's
  // mailer reads it when it renders.
  const { html_emails_enabled: withHtml } = await readApplicationSettings(trx);
  const rows = await trx
    .insertInto('email_outbox')
    .values(emails.map((email) => ({
      from_address: email.from,
      to_address: email.to,
      user_id: email.userId,
      subject: email.subject,
      message_id: email.messageId,
      headers: JSON.stringify(email.headers),
      text_body: email.text,
      html_body: withHtml ? email.html : '',
      state: 'queued' as const,
      last_error: null,
      file: null,
      cause_job_id: causeJobId,
      created_at: now,
      updated_at: now,
      sent_at: null,
    })))
    .returning('id')
    .execute();
  const ids = rows.map((row) => Number(row.id));
  await enqueue(trx, deps.clock, JOB_DELIVER_EMAILS, { emailIds: ids }, { maxAttempts: 12 });
  return ids;
}

/** Whether a composing job already queued its messages (it ran before and died before it was marked done). */
export async function composedBy(deps: Deps, jobId: number): Promise<boolean> {
  const row = await deps.db.selectFrom('email_outbox').select('id').where('cause_job_id', '=', jobId).limit(1).executeTakeFirst();
  return row !== undefined;
}
