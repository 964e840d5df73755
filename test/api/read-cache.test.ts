// The read cache (platform/db/read-cache.ts) behind the hot API paths: a change made by another process on
// the same database (here: a second connection, as a `kiln worker` or a second `kiln serve` would
// have) takes effect on the very next request, after the answers were cached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import type { Database } from '../../src/platform/db/database.js';
import { sha256Hex } from '../../src/platform/crypto.js';

let kiln: TestKiln;
let other: Database;
let owner: TestUser;
let reader: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  other = kiln.testDb.reopen();
  owner = await kiln.createUser('cache-owner');
  reader = await kiln.createUser('cache-reader');
});
afterAll(async () => {
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
