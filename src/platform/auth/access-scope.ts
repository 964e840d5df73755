// What an access decision depends on besides the data: who asks (their id and the admin flag), and
// the day, because memberships expire by the day. Every cached answer that went through an access
// check is keyed by it (the route context's `cachedAnswer` and `cachedPage` add it themselves).
import type { AuthUser } from './principal.js';
import { DAY_MS } from '../clock.js';

/** Today's date as members.expires_at compares it; a membership expires at the end of its date. */
export function today(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

// Asked on most requests (membership expiry, cache keys): formatting a date each time showed in
// profiles. One pure value, the same for every app of the process.
let lastDay = { day: Number.NaN, text: '' };

/** The caller's scope as part of a cache key; anonymous callers share one. */
export function accessScope(user: AuthUser | null, nowMs: number): string {
  return user ? `${user.id}\u0000${user.admin ? 'admin' : 'user'}\u0000${today(nowMs)}` : 'anonymous';
}
