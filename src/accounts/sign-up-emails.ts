// The messages of sign-up (docs/accounts.md): the confirmation link, the note to administrators that
// a sign-up awaits them, the answer to the person who signed up (approved or rejected), and the note
// to an address's owner that someone tried to sign up with it. Queued in the caller's transaction.
import type { Deps } from '../platform/deps.js';
import type { DbTransaction } from '../platform/db/database.js';
import { escapeHtml } from '../platform/web/html.js';
import { queueEmails } from '../email/api.js';

/** How long a sign-up's confirmation link works (Kiln's choice; the address stays unconfirmed after). */
export const CONFIRMATION_LIFETIME_MS = 3 * 24 * 60 * 60_000;

export function signUpConfirmationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/users/confirmation?confirmation_token=${token}`;
}

export interface AccountMessage {
  to: string;
  userId: number | null;
  subject: string;
  /** Plain paragraphs; a paragraph may end with a link. */
  paragraphs: Array<string | { text: string; link: string }>;
  kind: string;
}

export async function queueAccountMail(deps: Deps, trx: DbTransaction, messages: AccountMessage[]): Promise<void> {
  const host = new URL(deps.config.baseUrl).hostname;
  await queueEmails(deps, trx, messages.map((message, index) => ({
    from: deps.config.emailFrom,
    to: message.to,
    userId: message.userId,
    subject: message.subject,
    messageId: `${message.kind}_${message.userId ?? 'none'}_${deps.clock.now()}_${index}@${host}`,
    headers: {},
    text: `${message.paragraphs.map((part) => (typeof part === 'string' ? part : `${part.text}\n\n${part.link}`)).join('\n\n')}\n`,
    html: message.paragraphs.map((part) => (typeof part === 'string'
      ? `<p>${escapeHtml(part)}</p>`
      : `<p><a href="${escapeHtml(part.link)}">${escapeHtml(part.text)}</a></p>`)).join(''),
  })));
}

export function confirmationMessage(deps: Deps, to: string, userId: number, token: string): AccountMessage {
  return {
    to, userId, kind: 'confirmation', subject: 'Confirmation instructions',
    paragraphs: [`Welcome, ${to}!`, { text: 'Confirm your email address', link: signUpConfirmationUrl(deps.config.baseUrl, token) }, 'The link works for three days.'],
  };
}

export async function notifyAdminsOfSignUp(deps: Deps, trx: DbTransaction, user: { id: number; username: string; name: string; email: string }): Promise<void> {
  const admins = await trx.selectFrom('users').select(['id', 'email']).where('admin', '=', 1).where('state', '=', 'active').where('user_type', '=', 'human').execute();
  await queueAccountMail(deps, trx, admins.map((admin) => ({
    to: admin.email, userId: Number(admin.id), kind: 'signup_pending',
    subject: 'Important information about usage on your Kiln instance: a sign-up awaits approval',
    paragraphs: [`${user.name} (@${user.username}, ${user.email}) signed up and awaits your approval.`, { text: 'Approve or reject it in the admin area', link: `${deps.config.baseUrl}/admin/users?filter=blocked_pending_approval` }],
  })));
}
