// The signed link of List-Unsubscribe: it names a user and an issue and carries an HMAC of both under
// the instance's session key, so it works in a browser without signing in and cannot be forged for
// someone else.
import { createHmac } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { safeEqual } from '../platform/crypto.js';

export const UNSUBSCRIBE_PATH = '/-/notifications/unsubscribe';

function signature(deps: Deps, userId: number, issueId: number): string {
  return createHmac('sha256', deps.secrets.sessionKey).update(`kiln:unsubscribe:issue:${userId}:${issueId}`).digest('base64url');
}

export function unsubscribeToken(deps: Deps, userId: number, issueId: number): string {
  return `${userId}-${issueId}-${signature(deps, userId, issueId)}`;
}

export function unsubscribeUrl(deps: Deps, userId: number, issueId: number): string {
  return `${deps.config.baseUrl}${UNSUBSCRIBE_PATH}/${unsubscribeToken(deps, userId, issueId)}`;
}

/** The user and issue a token names, or null when it is malformed or its signature is wrong. */
export function verifyUnsubscribeToken(deps: Deps, token: string): { userId: number; issueId: number } | null {
  const match = /^(\d{1,15})-(\d{1,15})-([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const issueId = Number(match[2]);
  return safeEqual(match[3], signature(deps, userId, issueId)) ? { userId, issueId } : null;
}
