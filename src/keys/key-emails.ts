// The e-mail a user gets about their SSH keys (GitLab's Notify#new_ssh_key_email,
// ssh_key_expiring_soon_email and ssh_key_expired_email): sent to the account's address.
import type { Deps } from '../platform/deps.js';
import type { DbTransaction } from '../platform/db/database.js';
import { html } from '../platform/web/html.js';
import { queueEmails, type OutgoingEmail } from '../email/api.js';
import type { KeyRow } from './entities.js';

export interface KeyOwner {
  id: number;
  name: string;
  email: string;
}

export type KeyNotice = 'added' | 'expiring_soon' | 'expired';

const SUBJECTS: Record<KeyNotice, string> = {
  added: 'SSH key was added to your account',
  expiring_soon: 'Your SSH key is expiring soon.',
  expired: 'Your SSH key has expired',
};

function sentence(notice: KeyNotice, key: KeyRow): string {
  if (notice === 'added') return `A new public key was added to your account: ${key.title}.`;
  const day = key.expires_at === null ? '' : new Date(Number(key.expires_at)).toISOString().slice(0, 10);
  return notice === 'expired' ? `Your SSH key "${key.title}" has expired (${day}).` : `Your SSH key "${key.title}" expires on ${day}.`;
}

function message(deps: Deps, notice: KeyNotice, owner: KeyOwner, key: KeyRow): OutgoingEmail {
  const url = `${deps.config.baseUrl}/profile/keys`;
  const host = new URL(deps.config.baseUrl).hostname;
  const lead = sentence(notice, key);
  const advice = notice === 'added' ? 'If this key was added in error, you can remove it under SSH Keys.' : 'You can add a new key under SSH Keys.';
  return {
    from: deps.config.emailFrom,
    to: owner.email,
    userId: owner.id,
    subject: SUBJECTS[notice],
    messageId: `ssh_key_${key.id}_${notice}@${host}`,
    headers: {},
    text: `Hi ${owner.name}!\n\n${lead}\n\n${advice}\n${url}\n`,
    html: html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${SUBJECTS[notice]}</title></head>
<body style="font-family: sans-serif; color: #333"><p>Hi ${owner.name}!</p><p>${lead}</p>
<p>${advice} <a href="${url}">SSH Keys</a></p></body></html>`.value,
  };
}

export async function queueKeyEmail(deps: Deps, trx: DbTransaction, notice: KeyNotice, owner: KeyOwner, key: KeyRow): Promise<void> {
  await queueEmails(deps, trx, [message(deps, notice, owner, key)]);
}
