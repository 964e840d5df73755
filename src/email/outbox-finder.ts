// Reads of the outbox for the administrator's pages: the latest messages, optionally in one state,
// and one message whole.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';

export type OutboxState = 'queued' | 'sent' | 'dead';

export function latestEmails(deps: Deps, limit: number, state?: OutboxState) {
  let query = deps.db.selectFrom('email_outbox').select(['id', 'to_address', 'subject', 'state', 'attempts', 'last_error', 'file', 'created_at', 'sent_at']).orderBy('id', 'desc').limit(limit);
  if (state) query = query.where('state', '=', state);
  return query.execute();
}

export async function findEmail(deps: Deps, id: number) {
  const email = await deps.db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  if (!email) throw new NotFoundError();
  return email;
}
