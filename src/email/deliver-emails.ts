// The delivery job: send a composed batch, in parallel over the pooled connections. A failed message
// stays queued and the job is retried with the queue's backoff (jobs/queue.ts); messages already
// sent are not sent again. After the job's last try the messages left are dead, shown to admins.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import type { EmailOutboxTable } from '../platform/db/tables/notifications.js';
import { createMailTransport, type Envelope, type MailTransport } from './transport.js';

type EmailRow = Selectable<EmailOutboxTable>;

const transports = new WeakMap<Deps, MailTransport>();

export function transportOf(deps: Deps): MailTransport {
  let transport = transports.get(deps);
  if (!transport) transports.set(deps, (transport = createMailTransport(deps.config)));
  return transport;
}

export function closeTransport(deps: Deps): void {
  transports.get(deps)?.close();
  transports.delete(deps);
}

export function envelopeOf(row: EmailRow): Envelope {
  return {
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    messageId: `<${row.message_id}>`,
    headers: JSON.parse(row.headers) as Record<string, string>,
    text: row.text_body,
    html: row.html_body,
  };
}

export async function deliverEmails(deps: Deps, payload: { emailIds: number[] }, job: ClaimedJob): Promise<void> {
  if (!Array.isArray(payload.emailIds) || payload.emailIds.length === 0) return;
  const rows = await deps.db.selectFrom('email_outbox').selectAll().where('id', 'in', payload.emailIds).where('state', '=', 'queued').execute();
  const transport = transportOf(deps);
  const sent: number[] = [];
  const failed: Array<{ row: EmailRow; error: unknown }> = [];
  await Promise.all(rows.map(async (row) => {
    try {
      const file = await transport.send(envelopeOf(row), String(row.id));
      if (file === null) sent.push(Number(row.id));
      else await deps.db.updateTable('email_outbox').set({ state: 'sent', file, attempts: row.attempts + 1, sent_at: deps.clock.now(), updated_at: deps.clock.now(), last_error: null }).where('id', '=', row.id).execute();
    } catch (error) {
      failed.push({ row, error });
    }
  }));
  const now = deps.clock.now();
  if (sent.length > 0) {
    await deps.db.updateTable('email_outbox').set((eb) => ({ state: 'sent', attempts: eb('attempts', '+', 1), sent_at: now, updated_at: now, last_error: null })).where('id', 'in', sent).execute();
  }
  if (failed.length === 0) return;
  const last = job.attempts >= job.max_attempts;
  for (const { row, error } of failed) {
    await deps.db
      .updateTable('email_outbox')
      .set({ state: last ? 'dead' : 'queued', attempts: row.attempts + 1, last_error: String((error as Error)?.message ?? error).slice(0, 2000), updated_at: now })
      .where('id', '=', row.id)
      .execute();
  }
  throw new Error(`${failed.length} of ${rows.length} messages not delivered: ${String((failed[0].error as Error)?.message ?? failed[0].error)}`);
}
