// Sessions of anonymous visitors, without database rows (issue 13: every anonymous page view used to
// insert one, for the sign-in form's CSRF token). The cookie is a random value marked as anonymous;
// the CSRF token is an HMAC of it under the instance's session key, so only this server can make it
// and only a page that can read the cookie's owner's responses can learn it. A flash message for the
// next page travels in a second cookie, signed and bound to the session cookie.
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { randomToken, safeEqual, sha256Hex } from '../platform/crypto.js';
import type { Session } from '../platform/auth/browser-sessions.js';
import { readCookie, setCookie } from '../platform/http/cookies.js';

/** Stored sessions' values are base64url, which has no dot: the prefix cannot collide with them. */
const PREFIX = 'anon.';
const FLASH_COOKIE = '_kiln_flash';

export function isAnonymousCookie(value: string): boolean {
  return value.startsWith(PREFIX);
}

export function newAnonymousCookie(): string {
  return `${PREFIX}${randomToken(32)}`;
}

function mac(deps: Deps, purpose: 'csrf' | 'flash', value: string): string {
  return createHmac('sha256', deps.secrets.sessionKey).update(`${purpose}\u0000${value}`).digest('base64url');
}

export function anonymousSession(deps: Deps, request: FastifyRequest, cookie: string, options: { withFlash: boolean } = { withFlash: true }): Session {
  const idDigest = sha256Hex(cookie);
  return { idDigest, stored: false, user: null, pendingUserId: null, csrfToken: mac(deps, 'csrf', cookie), flash: options.withFlash ? readFlash(deps, request, idDigest) : null };
}

function readFlash(deps: Deps, request: FastifyRequest, idDigest: string): string | null {
  const value = readCookie(request, FLASH_COOKIE);
  const dot = value?.lastIndexOf('.') ?? -1;
  if (!value || dot === -1) return null;
  const message = value.slice(0, dot);
  if (!safeEqual(value.slice(dot + 1), mac(deps, 'flash', `${idDigest}.${message}`))) return null;
  return Buffer.from(message, 'base64url').toString('utf8');
}

export function setAnonymousFlash(deps: Deps, reply: FastifyReply, session: Session, flash: string | null): void {
  const secure = deps.config.baseUrl.startsWith('https:');
  if (flash === null) {
    if (session.flash !== null) setCookie(reply, FLASH_COOKIE, '', { secure, maxAgeSeconds: 0 });
    return;
  }
  const message = Buffer.from(flash, 'utf8').toString('base64url');
  setCookie(reply, FLASH_COOKIE, `${message}.${mac(deps, 'flash', `${session.idDigest}.${message}`)}`, { secure });
}
