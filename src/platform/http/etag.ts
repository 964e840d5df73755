// ETags on API reads, as GitLab's (Rack::ETag and Rack::ConditionalGet around the API): a 200 to a
// GET carries `ETag: W/"<32 hex digits>"`, the first half of the body's SHA-256 as Rack::ETag writes
// it, and a GET whose `If-None-Match` names it gets 304 with no body. Computed from the answer the
// route gave, so after every permission check: a caller who may no longer read something gets its
// 404 or 403, never a 304.
//
// One-shot SHA-256 (platform/crypto.ts): no Hash object per request, and with the CPU's SHA
// instructions about twice as fast as MD5 (a page of 20 projects, 84 KB: ~100 µs against ~250 µs).
//
// A route may name what identifies its answer instead (JsonText's identity): the ids and versions of
// the kept entities a page joins, say. The ETag is then the digest of that short text, not of the
// body (a page of 20 projects is 84 KB: ~120 µs of hashing on every request), still computed only
// for an answer the route gave. The identity is salted with this process's start: a restart or
// another build may serialise the same rows differently, so its ETags never match an older one.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { hexDigest } from '../crypto.js';

const SALT = randomBytes(8).toString('hex');
const identities = new WeakMap<FastifyReply, string>();

export function etagOf(body: string): string {
  return `W/"${hexDigest('sha256', body).slice(0, 32)}"`;
}

/** The answer `reply` sends is identified by `identity`: the same identity, the same body. */
export function identifyAnswer(reply: FastifyReply, identity: string): void {
  identities.set(reply, identity);
}

/** The ETag of the answer `reply` sends: of its identity when the route named one, else of `body`. */
export function etagOfAnswer(reply: FastifyReply, body: string): string {
  const identity = identities.get(reply);
  return identity === undefined ? etagOf(body) : etagOf(`${SALT}\u0000${identity}`);
}

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false;
  const opaque = etag.slice(2);
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag === etag || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}
