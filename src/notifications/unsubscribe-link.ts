// The signed link of List-Unsubscribe: it names a user and an issue or merge request and carries an
// HMAC of them under the instance's session key, so it works in a browser without signing in and
// cannot be forged for someone else. An issue's token is `<user>-<issue>-<mac>`, a merge request's
// `<user>-m<merge request>-<mac>` (its MAC signs the type too).
import { createHmac } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { safeEqual } from '../platform/crypto.js';

export const UNSUBSCRIBE_PATH = '/-/notifications/unsubscribe';

export type UnsubscribeType = 'Issue' | 'MergeRequest';

function signature(deps: Deps, userId: number, type: UnsubscribeType, id: number): string {
  return createHmac('sha256', deps.secrets.sessionKey)
    .update(`kiln:unsubscribe:${type === 'Issue' ? 'issue' : 'merge_request'}:${userId}:${id}`)
    .digest('base64url');
}

export function unsubscribeToken(deps: Deps, userId: number, id: number, type: UnsubscribeType = 'Issue'): string {
  return `${userId}-${type === 'Issue' ? '' : 'm'}${id}-${signature(deps, userId, type, id)}`;
}

export function unsubscribeUrl(deps: Deps, userId: number, id: number, type: UnsubscribeType = 'Issue'): string {
  return `${deps.config.baseUrl}${UNSUBSCRIBE_PATH}/${unsubscribeToken(deps, userId, id, type)}`;
}

/** The user and the issue or merge request a token names, or null when it is malformed or its signature is wrong. */
export function verifyUnsubscribeToken(deps: Deps, token: string): { userId: number; type: UnsubscribeType; id: number } | null {
  const match = /^(\d{1,15})-(m?)(\d{1,15})-([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const type: UnsubscribeType = match[2] ? 'MergeRequest' : 'Issue';
  const id = Number(match[3]);
  return safeEqual(match[4], signature(deps, userId, type, id)) ? { userId, type, id } : null;
}
