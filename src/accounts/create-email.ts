// POST /user/emails and /users/:id/emails (GitLab's Emails::CreateService): another address of the
// user, unique across every user's addresses. A user adding their own gets it unconfirmed, with a
// confirmation link sent to it; an administrator may skip the confirmation.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { sha256Hex } from '../platform/crypto.js';
import type { EmailsTable } from '../platform/db/tables/accounts.js';
import { queueEmails } from '../email/api.js';
import type { UserRow } from './lookup.js';

export type EmailRow = Selectable<EmailsTable>;

export const EMAIL_FORMAT = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function confirmationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/-/profile/emails/confirmation?confirmation_token=${token}`;
}

export async function createEmail(deps: Deps, user: UserRow, address: string, options: { confirmed: boolean }): Promise<{ email: EmailRow; token: string | null }> {
  const email = address.trim();
  if (!EMAIL_FORMAT.test(email)) throw new ValidationError({ email: ['is invalid'] });
  const taken = await deps.db.selectFrom('users').select('id').where('email_lower', '=', email.toLowerCase()).executeTakeFirst();
  if (taken) throw new ValidationError({ email: ['has already been taken'] });
  const token = options.confirmed ? null : randomBytes(20).toString('hex');
  const now = deps.clock.now();
  try {
    const row = await inTransaction(deps.db, async (trx) => {
      const inserted = await trx
        .insertInto('emails')
        .values({
          user_id: user.id,
          email,
          email_lower: email.toLowerCase(),
          confirmed_at: options.confirmed ? now : null,
          confirmation_digest: token ? sha256Hex(token) : null,
          confirmation_sent_at: token ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (token) {
        const link = confirmationUrl(deps.config.baseUrl, token);
        await queueEmails(deps, trx, [{
          from: deps.config.emailFrom,
          to: email,
          userId: Number(user.id),
          subject: 'Confirmation instructions',
          messageId: `email_confirmation_${inserted.id}_${token.slice(0, 8)}@${new URL(deps.config.baseUrl).hostname}`,
          headers: {},
          text: `Click the link below to confirm your email address (${email}).\n\n${link}\n`,
          html: `<p>Click the link below to confirm your email address (${email.replace(/[<>&"]/g, '')}).</p><p><a href="${link}">Confirm your email address</a></p>`,
        }]);
      }
      return inserted;
    });
    return { email: row, token };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ email: ['has already been taken'] });
    throw error;
  }
}
