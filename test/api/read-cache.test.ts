// The row cache (platform/db/reads.ts) behind the hot API paths: a change made by another process
// on the same database (a second connection, as a `kiln worker` would make; a second app instance,
// as a second `kiln serve` or PostgreSQL node would) takes effect on the very next request, after
// the look-ups were cached.
import { statementsDuring } from '../platform/statement-counter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { sql } from 'kysely';
import { testKiln, testSecrets, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { testDialect } from '../helpers/database.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import type { Database } from '../../src/platform/db/database.js';
import { sha256Hex } from '../../src/platform/crypto.js';

let kiln: TestKiln;
let other: Database;
let owner: TestUser;
let reader: TestUser;
/** A second app instance on the same database: a second `kiln serve`, or a second PostgreSQL node. */
let second: Kiln;

beforeAll(async () => {
  kiln = await testKiln();
  other = kiln.testDb.reopen();
  second = await startKiln(kiln.config, { clock: kiln.clock, log: pino({ level: 'silent' }), database: kiln.testDb.reopen(), secrets: testSecrets() });
  owner = await kiln.createUser('cache-owner');
  reader = await kiln.createUser('cache-reader');
});
afterAll(async () => {
  await second.close();
  await other.close();
  await kiln.close();
});

async function twice(path: string, token: string) {
  const first = await kiln.api('GET', path, { token });
  const second = await kiln.api('GET', path, { token });
  // The second answer comes from the cache: the same status, body and headers as the computed one.
  expect(second.status).toBe(first.status);
  expect(second.body).toEqual(first.body);
  expect(second.headers['content-type']).toBe('application/json');
  for (const name of ['x-total', 'x-page', 'link']) expect(second.headers[name]).toBe(first.headers[name]);
  return second;
}

describe('cached API answers after a change by another process', () => {
  it('a revoked token is refused on the next request', async () => {
    const user = await kiln.createUser('cache-revoked');
    expect((await twice('/user', user.token)).status).toBe(200);
    await sql`update personal_access_tokens set revoked = 1 where token_digest = ${sha256Hex(user.token)}`.execute(other.db);
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(401);
  });

  it('a blocked user is refused on the next request', async () => {
    const user = await kiln.createUser('cache-blocked');
    expect((await twice('/user', user.token)).status).toBe(200);
    await sql`update users set state = 'blocked' where id = ${user.id}`.execute(other.db);
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(403);
  });

  it('a removed member no longer sees the private project, and a rename shows at once', async () => {
    const project = await kiln.createProject(owner, 'cache-private', { visibility: 'private' });
    await kiln.addMember(owner, 'projects', project.id, reader, 30);
    expect((await twice(`/projects/${project.id}`, reader.token)).body.name).toBe('cache-private');
    await sql`update projects set name = 'renamed elsewhere' where id = ${project.id}`.execute(other.db);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).body.name).toBe('renamed elsewhere');
    await sql`delete from members where source_type = 'Project' and source_id = ${project.id} and user_id = ${reader.id}`.execute(other.db);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).status).toBe(404);
  });

  it('a page and its X-Total follow an insert made elsewhere', async () => {
    const project = await kiln.createProject(owner, 'cache-environments');
    await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'production' } });
    const before = await twice(`/projects/${project.id}/environments`, owner.token);
    expect(before.headers['x-total']).toBe('1');
    const now = Date.now();
    await sql`insert into environments (project_id, name, slug, state, tier, created_at, updated_at) values (${project.id}, 'staging', 'staging', 'available', 'staging', ${now}, ${now})`.execute(other.db);
    const after = await kiln.api('GET', `/projects/${project.id}/environments`, { token: owner.token });
    expect(after.headers['x-total']).toBe('2');
    expect(after.body.map((env: { name: string }) => env.name)).toEqual(['production', 'staging']);
  });
});

describe('two app instances on one database', () => {
  const onSecond = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await second.app.inject({ method: method as 'GET', url: `/api/v4${path}`, headers: { 'private-token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? null : response.json();
  };

  it('a token revoked on the other instance is refused on the next request', async () => {
    const user = await kiln.createUser('nodes-token');
    expect((await twice('/user', user.token)).status).toBe(200);
    const self = await onSecond('GET', '/personal_access_tokens/self', user.token);
    await onSecond('DELETE', `/personal_access_tokens/${self.id}`, user.token);
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(401);
  });

  it('a user blocked on the other instance is refused on the next request', async () => {
    const user = await kiln.createUser('nodes-user');
    expect((await twice('/user', user.token)).status).toBe(200);
    await onSecond('POST', `/users/${user.id}/block`, kiln.root.token);
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(403);
  });

  it('a project renamed and a member removed on the other instance show on the next request', async () => {
    const project = await kiln.createProject(owner, 'nodes-project', { visibility: 'private' });
    await kiln.addMember(owner, 'projects', project.id, reader, 30);
    expect((await twice(`/projects/${project.id}`, reader.token)).body.name).toBe('nodes-project');
    await onSecond('PUT', `/projects/${project.id}`, owner.token, { name: 'renamed on the other node' });
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).body.name).toBe('renamed on the other node');
    await onSecond('DELETE', `/projects/${project.id}/members/${reader.id}`, owner.token);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).status).toBe(404);
  });

  it('a page and a memoised answer follow writes on the other instance', async () => {
    const project = await kiln.createProject(owner, 'nodes-environments');
    const created = await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'production' } });
    expect((await twice(`/projects/${project.id}/environments`, owner.token)).headers['x-total']).toBe('1');
    expect((await twice(`/projects/${project.id}/environments/${created.body.id}`, owner.token)).body.external_url).toBeNull();
    await onSecond('POST', `/projects/${project.id}/environments`, owner.token, { name: 'staging' });
    await onSecond('PUT', `/projects/${project.id}/environments/${created.body.id}`, owner.token, { external_url: 'https://prod.example.com' });
    const page = await kiln.api('GET', `/projects/${project.id}/environments`, { token: owner.token });
    expect(page.headers['x-total']).toBe('2');
    expect(page.body.map((environment: { name: string }) => environment.name)).toEqual(['production', 'staging']);
    expect((await kiln.api('GET', `/projects/${project.id}/environments/${created.body.id}`, { token: owner.token })).body.external_url).toBe('https://prod.example.com');
  });

  // What an authenticated GET /projects/:id reads: on SQLite the look-ups are kept until a write to
  // what they read (here or in another process); on PostgreSQL nothing is kept and the token, project
  // and levels are one statement, one round trip.
  describe('what an authenticated GET /projects/:id reads', () => {
    let project: { id: number };
    const get = async () => {
      let status = 0;
      const texts = await statementsDuring(async () => {
        status = (await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).status;
      });
      expect(status).toBe(200);
      return texts;
    };
    const checks = new Set(['pragma data_version', 'pragma schema_version']);
    const reads = (texts: string[]) => texts.filter((text) => !checks.has(text));

    beforeAll(async () => {
      project = await kiln.createProject(owner, 'nodes-costs', { visibility: 'private' });
      await kiln.addMember(owner, 'projects', project.id, reader, 30);
      // The first authenticated request records the token's use (a write, after the answer): done twice over.
      await twice(`/projects/${project.id}`, reader.token);
      await twice(`/projects/${project.id}`, reader.token);
    });

    // The project is shared with no group (its row's has_group_links is 0): `shared_with_groups` is
    // not read.
    it('SQLite: only the checks for other processes\' commits when nothing was written; PostgreSQL: one statement', async () => {
      const texts = await get();
      if (testDialect() === 'sqlite') expect(reads(texts)).toEqual([]);
      else expect(texts).toHaveLength(1);
    });

    it('read again after another process wrote, and the change shows', async () => {
      await sql`update projects set description = ${'changed on the other node'} where id = ${project.id}`.execute(second.deps.db);
      expect(reads(await get()).length).toBe(1);
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).body.description).toBe('changed on the other node');
    });

    // The flag that says whether to read them is on the project row (has_group_links), written with
    // the link: a share or its removal on the other instance shows on the next GET here.
    it('a share and its removal on the other instance show at once, and the shared project reads its groups', async () => {
      const guests = await kiln.createGroup(owner, 'nodes-guests', { visibility: 'public' });
      const shown = async () => (await kiln.api('GET', `/projects/${project.id}`, { token: reader.token })).body.shared_with_groups.map((row: { group_id: number }) => row.group_id);
      expect(await shown()).toEqual([]);
      await onSecond('POST', `/projects/${project.id}/share`, owner.token, { group_id: guests.id, group_access: 20 });
      expect(await shown()).toEqual([guests.id]);
      const texts = await get();
      // The look-up kept (SQLite) or read (PostgreSQL), then the groups.
      if (testDialect() === 'sqlite') expect(reads(texts)).toHaveLength(1);
      else expect(texts).toHaveLength(2);
      await onSecond('DELETE', `/projects/${project.id}/share/${guests.id}`, owner.token);
      expect(await shown()).toEqual([]);
    });
  });
});
