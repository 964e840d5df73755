// Answers replayed before Fastify. A GET that an API route answered from the read cache (its body is
// what the context's `cachedAnswer` or `cachedPage` gave) is kept, bytes and headers, under its URL and
// the digest of the personal access token that asked, for as long as nothing it read changes: the
// read cache drops it with the memos (read-cache.ts `remember`), on every table the whole request read,
// authentication included. The next identical request is answered from node:http's own request and
// response with those bytes: no routing, hooks, authentication or serialisation, the cost of a cached
// read brought to about that of the bare server (docs/performance.md).
//
// Only what cannot change the answer is left out of the key. A request qualifies when the token in
// its `PRIVATE-TOKEN` header is the only credential and nothing else decides who asks or what: no
// Authorization, cookie or Sudo header, no body, and (checked where the answer is kept) no credential
// or `sudo` among its parameters, which are all in the URL. Time enters through the principal's
// `validUntil` (the day's end, the token's last-used throttle): a kept answer is not replayed after it.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import type { ReadCache, TablesRead } from '../db/read-cache.js';
import { sha256Hex } from '../crypto.js';

/** A GET being answered that may be kept for replay (set by the route kit, finished in `keepForReplay`). */
export interface ReplayCandidate {
  key: string;
  reading: TablesRead;
  validUntil: number;
}

interface Replay {
  /** The answer's headers as a flat list (name, value, …), without the per-request id. */
  head: string[];
  body: Buffer;
  /** The route's pattern, for the request histogram. */
  route: string;
  validUntil: number;
}

/** A GET's token and the reading of what it reads, from its first step (`startReplayReading`). */
export interface ReplayReading {
  token: string;
  reading: TablesRead;
}

// The URLs some answer was kept for (a few may have been dropped since): a GET to any other URL
// skips the token's digest and the look-up. Process-wide like the digest; forgotten all at once.
const keptUrls = new Set<string>();
const KEPT_URLS_LIMIT = 10_000;
// Longer URLs are not kept: the set above stays within a few tens of megabytes.
const MAX_KEPT_URL = 2_048;

// Parameters that name a credential or another user: an answer that had one is not kept.
const DECIDING_PARAMS = ['private_token', 'access_token', 'bearer_token', 'sudo'];

/** The personal access token of a request that only its header and URL decide, else null. */
function replayToken(headers: IncomingHttpHeaders): string | null {
  const token = headers['private-token'];
  if (typeof token !== 'string' || token === '') return null;
  if (headers.authorization !== undefined || headers.cookie !== undefined || headers.sudo !== undefined) return null;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return null;
  return token;
}

function replayKey(url: string, token: string): string {
  return `replay\u0000GET ${url}\u0000${sha256Hex(token)}`;
}

/**
 * The route kit's first step for a GET: start noting what the request reads when it could be kept,
 * else null (the read cache keeps nothing, or the request carries more than a token header).
 */
export function startReplayReading(readCache: ReadCache, request: FastifyRequest): ReplayReading | null {
  if (readCache.startReading === undefined || request.method !== 'GET') return null;
  const token = replayToken(request.headers);
  return token === null ? null : { token, reading: readCache.startReading() };
}

/** The candidate to keep once the handler answered, or null (the reading is then ended). */
export function replayCandidate(
  started: ReplayReading,
  request: FastifyRequest,
  input: Record<string, unknown>,
  principal: Principal | null,
  fromCache: boolean,
): ReplayCandidate | null {
  const validUntil = principal?.validUntil;
  if (!fromCache || principal?.via !== 'personal_access_token' || principal.sudoFrom || validUntil === undefined || DECIDING_PARAMS.some((name) => input[name] !== undefined)) {
    started.reading.end();
    return null;
  }
  return { key: replayKey(request.url, started.token), reading: started.reading, validUntil };
}

/** The app's onSend step: keep a candidate's 200 answer (its final bytes and headers), else end its reading. */
export function keepForReplay(readCache: ReadCache, request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const candidate = request.replay;
  if (!candidate) return;
  request.replay = null;
  if (reply.statusCode !== 200 || typeof payload !== 'string' || readCache.remember === undefined || request.url.length > MAX_KEPT_URL) return candidate.reading.end();
  const body = Buffer.from(payload);
  const head: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (name === 'x-request-id' || name === 'content-length' || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) head.push(name, String(one));
  }
  head.push('content-length', String(body.byteLength));
  if (keptUrls.size >= KEPT_URLS_LIMIT) keptUrls.clear();
  keptUrls.add(request.url);
  const replay: Replay = { head, body, route: request.routeOptions.url ?? 'unmatched', validUntil: candidate.validUntil };
  readCache.remember(candidate.key, replay, candidate.reading);
}

/**
 * The server's step before Fastify: answer a GET from its kept replay and return true, else false.
 * Null when nothing is ever kept (the read cache keeps no answers, or requests are logged one by one).
 */
export function answerReplay(deps: Deps): ((request: IncomingMessage, response: ServerResponse) => boolean) | null {
  const { readCache, clock, metrics } = deps;
  if (readCache.recall === undefined || deps.log.isLevelEnabled('debug')) return null;
  const recall = readCache.recall;
  return (request, response) => {
    const url = request.url!;
    if (request.method !== 'GET' || !keptUrls.has(url)) return false;
    const token = replayToken(request.headers);
    if (token === null) return false;
    const started = performance.now();
    const replay = recall(replayKey(url, token)) as Replay | undefined;
    if (replay === undefined || replay.validUntil <= clock.now()) return false;
    const id = request.headers['x-request-id'];
    response.writeHead(200, [...replay.head, 'x-request-id', typeof id === 'string' && id !== '' ? id : randomUUID()]);
    response.end(replay.body);
    metrics.requests.observe({ method: 'GET', route: replay.route, status: '200' }, (performance.now() - started) / 1000);
    return true;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    replay: ReplayCandidate | null;
  }
}
