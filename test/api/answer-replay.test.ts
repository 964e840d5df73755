// Kept answers replayed before Fastify (src/platform/http/answer-replay.ts), over a real connection:
// a replayed answer is byte for byte the answer the route gave, and every change the route's answer
// depends on (the data it read, the token, the caller's memberships, the day) is seen by the next
// request. Whether a request was replayed is told by the token look-up it did not make.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { testDialect } from '../helpers/database.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { DAY_MS } from '../../src/platform/clock.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';

let kiln: TestKiln;
let base: string;
let reader: TestUser;
let projectId: number;
// Token look-ups made through Fastify's route kit since the last reset.
let lookups = 0;

beforeAll(async () => {
  kiln = await testKiln();
  const owner = await kiln.createUser('replay-owner');
  reader = await kiln.createUser('replay-reader');
  const group = await kiln.createGroup(owner, 'replayed');
  projectId = (await kiln.createProject(owner, 'service', { namespace_id: group.id })).id;
  await kiln.createProject(owner, 'other', { namespace_id: group.id });
  await kiln.addMember(owner, 'groups', group.id, reader, ACCESS.developer);
  const registry = kiln.deps.auth;
  const withProject = registry.personalAccessTokenWithProject!;
  registry.personalAccessTokenWithProject = (token, idOrPath) => ((lookups += 1), withProject(token, idOrPath));
  const resolvers = registry.personalAccessToken;
  registry.personalAccessToken = resolvers.map((resolve) => (token: string) => ((lookups += 1), resolve(token)));
  await kiln.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(kiln.app.server.address() as import('node:net').AddressInfo).port}`;
});

afterAll(async () => {
  await kiln.close();
});

beforeEach(() => {
  lookups = 0;
});

const get = (path: string, token: string | null = reader.token, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v4${path}`, { headers: { ...(token ? { 'private-token': token } : {}), ...headers } });

/** The answer's status, body and headers without the ones that differ per request. */
async function answer(path: string, token?: string | null, headers?: Record<string, string>) {
  const response = await get(path, token, headers);
  const kept = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive', 'connection'].includes(name)));
  return { status: response.status, body: await response.text(), headers: kept, requestId: response.headers.get('x-request-id') };
}

const sqlite = testDialect() === 'sqlite';

describe('answers kept for replay', () => {
  it('answer a repeated GET with the same bytes and headers, without the route (SQLite)', async () => {
    // The token's first use is noted (a write to its row): what read it before is not kept.
    await answer(`/projects/${projectId}`);
    const first = await answer(`/projects/${projectId}`);
    expect(first.status).toBe(200);
    const looked = lookups;
    const second = await answer(`/projects/${projectId}`, reader.token, { 'x-request-id': 'given-id' });
    expect(second).toEqual({ ...first, requestId: 'given-id' });
    expect(second.headers['content-type']).toBe('application/json');
    expect(second.headers['x-frame-options']).toBe('SAMEORIGIN');
    if (sqlite) expect(lookups).toBe(looked);
    const third = await answer(`/projects/${projectId}`);
    expect(third.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(third.requestId).not.toBe(first.requestId);
  });

  it('keep a page with its pagination headers', async () => {
    const first = await answer('/projects?per_page=1');
    expect(first.headers['x-total']).toBe('2');
    expect(first.headers.link).toContain('rel="next"');
    const looked = lookups;
    expect(await answer('/projects?per_page=1')).toEqual({ ...first, requestId: expect.any(String) });
    if (sqlite) expect(lookups).toBe(looked);
  });

  it('see a change to what the answer read, by this connection and by another one', async () => {
    await answer(`/projects/${projectId}`);
    await kiln.deps.db.updateTable('projects').set({ description: 'changed here' }).where('id', '=', projectId).execute();
    expect(JSON.parse((await answer(`/projects/${projectId}`)).body).description).toBe('changed here');
    await answer(`/projects/${projectId}`);
    // Another process's commit (a worker, a second node on the same database).
    const other = kiln.testDb.reopen();
    try {
      await sql`update projects set description = 'changed elsewhere' where id = ${projectId}`.execute(other.db);
    } finally {
      await other.close();
    }
    expect(JSON.parse((await answer(`/projects/${projectId}`)).body).description).toBe('changed elsewhere');
  });

  it('see the caller lose access: a membership removed, the token revoked', async () => {
    const visitor = await kiln.createUser('replay-visitor');
    const group = (await kiln.api('GET', `/projects/${projectId}`, { token: reader.token })).body.namespace.id;
    await kiln.addMember(kiln.root, 'groups', group, visitor, ACCESS.reporter);
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(200);
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(200);
    await kiln.api('DELETE', `/groups/${group}/members/${visitor.id}`, { token: kiln.root.token });
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(404);

    await kiln.addMember(kiln.root, 'groups', group, visitor, ACCESS.reporter);
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(200);
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(200);
    const tokenId = (await kiln.api('GET', '/personal_access_tokens/self', { token: visitor.token })).body.id;
    expect((await kiln.api('DELETE', `/personal_access_tokens/${tokenId}`, { token: visitor.token })).status).toBe(204);
    expect((await answer(`/projects/${projectId}`, visitor.token)).status).toBe(401);
  });

  it('are kept per token: another token of the same user is looked up, a stranger gets their own answer', async () => {
    const kept = await answer(`/projects/${projectId}`);
    await answer(`/projects/${projectId}`);
    const { token: second } = await createPersonalAccessToken(kiln.deps, { userId: reader.id, name: 'second', scopes: ['api'] });
    let looked = lookups;
    // Not the first token's kept answer: looked up, noted as used, then kept for itself.
    expect((await answer(`/projects/${projectId}`, second)).body).toBe(kept.body);
    expect(lookups).toBeGreaterThan(looked);
    await answer(`/projects/${projectId}`, second);
    looked = lookups;
    expect((await answer(`/projects/${projectId}`, second)).body).toBe(kept.body);
    if (sqlite) expect(lookups).toBe(looked);
    looked = lookups;
    const stranger = await kiln.createUser('replay-stranger');
    expect((await answer(`/projects/${projectId}`, stranger.token)).status).toBe(404);
    expect((await answer(`/projects/${projectId}`, stranger.token)).status).toBe(404);
    expect((await answer(`/projects/${projectId}`, 'glpat-not-a-token')).status).toBe(401);
    expect((await answer(`/projects/${projectId}`, null)).status).toBe(404);
    expect(lookups).toBeGreaterThan(looked);
  });

  it('are not replayed for a request that another header or parameter could change', async () => {
    await answer(`/projects/${projectId}`);
    await answer(`/projects/${projectId}`);
    for (const [path, headers] of [
      [`/projects/${projectId}`, { cookie: 'a=b' }],
      [`/projects/${projectId}`, { sudo: 'replay-owner' }],
      [`/projects/${projectId}`, { authorization: 'Bearer not-an-oauth-token' }],
      [`/projects/${projectId}?sudo=replay-owner`, {}],
    ] as Array<[string, Record<string, string>]>) {
      const looked = lookups;
      const response = await answer(path, reader.token, headers);
      expect(lookups, `${path} ${JSON.stringify(headers)}`).toBeGreaterThan(looked);
      expect([200, 401, 403]).toContain(response.status);
    }
    // A sudo parameter's answer is not kept: asked again, it is the route's again.
    const looked = lookups;
    await answer(`/projects/${projectId}?sudo=replay-owner`);
    expect(lookups).toBeGreaterThan(looked);
  });

  it('end with the day (memberships and tokens expire by it) and when the token is due to note its use', async () => {
    await answer(`/projects/${projectId}`);
    await answer(`/projects/${projectId}`);
    const now = kiln.clock.now();
    kiln.clock.set((Math.floor(now / DAY_MS) + 1) * DAY_MS);
    const looked = lookups;
    expect((await answer(`/projects/${projectId}`)).status).toBe(200);
    expect(lookups).toBeGreaterThan(looked);
    // Used just now: its use is noted again after ten minutes, by the route.
    await answer(`/projects/${projectId}`);
    kiln.clock.advance(10 * 60_000 + 1);
    const before = (await kiln.deps.db.selectFrom('personal_access_tokens').select('last_used_at').where('user_id', '=', reader.id).executeTakeFirstOrThrow()).last_used_at;
    await answer(`/projects/${projectId}`);
    const after = (await kiln.deps.db.selectFrom('personal_access_tokens').select('last_used_at').where('user_id', '=', reader.id).executeTakeFirstOrThrow()).last_used_at;
    expect(Number(after)).toBe(kiln.clock.now());
    expect(Number(after)).toBeGreaterThan(Number(before));
  });

  it.runIf(sqlite)('stop noting what a route reads when none of its first hundred answers came from the cache (SQLite)', async () => {
    const cache = kiln.deps.readCache;
    const start = cache.startReading!.bind(cache);
    let readings = 0;
    cache.startReading = () => ((readings += 1), start());
    try {
      // GET /user answers from a plain look-up, never from cachedAnswer.
      for (let i = 0; i < 120; i += 1) expect((await kiln.api('GET', '/user', { token: reader.token })).status).toBe(200);
      expect(readings).toBe(100);
      readings = 0;
      for (let i = 0; i < 120; i += 1) expect((await kiln.api('GET', `/projects/${projectId}`, { token: reader.token })).status).toBe(200);
      expect(readings).toBe(120);
    } finally {
      cache.startReading = start;
    }
  });
});
