// The alert endpoint remembers integrations between requests (alerts/remembered-integrations.ts) and
// counts a repeated alert with one write guarded by the remembered row. Every change to the
// integration or its project, made here by another process on the same database (a second
// connection, as a second `kiln serve` would), must take effect on the very next post.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import type { Database } from '../../src/platform/db/database.js';

let kiln: TestKiln;
let other: Database;
let alice: TestUser;
let project: any;
let integration: any;
let fingerprintCounter = 0;

async function post(path: string, body: unknown, key: string) {
  const response = await kiln.request('POST', path, { body, headers: { authorization: `Bearer ${key}` } });
  return { status: response.statusCode, body: response.json() };
}

async function alert(iid: number) {
  return (await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${iid}`, { token: alice.token })).body;
}

/** An open alert whose fingerprint is repeated once, so the integration is remembered and the hot path was taken. */
async function openAlert(path = new URL(integration.url).pathname, key = integration.token) {
  fingerprintCounter += 1;
  const payload = { title: `Remembered ${fingerprintCounter}`, fingerprint: `remembered-${fingerprintCounter}` };
  const first = await post(path, payload, key);
  const second = await post(path, payload, key);
  expect(second.body[0].iid).toBe(first.body[0].iid);
  expect((await alert(first.body[0].iid)).events).toBe(2);
  return { payload, iid: first.body[0].iid as number };
}

beforeAll(async () => {
  kiln = await testKiln();
  other = kiln.testDb.reopen();
  alice = await kiln.createUser('alice');
});
beforeEach(async () => {
  project = await kiln.createProject(alice, `remembered-${Date.now()}-${fingerprintCounter}`);
  integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Main' } })).body;
});
afterAll(async () => {
  await other.close();
  await kiln.close();
});

describe('a remembered integration changed by another process', () => {
  it('a reset key: the old key gets 401 and counts nothing, the new key is counted', async () => {
    const { payload, iid } = await openAlert();
    const newKey = 'f'.repeat(32);
    await sql`update alert_management_http_integrations set token_sealed = ${kiln.deps.box.seal(newKey)} where id = ${integration.id}`.execute(other.db);
    expect((await post(new URL(integration.url).pathname, payload, integration.token)).status).toBe(401);
    expect((await alert(iid)).events).toBe(2);
    expect((await post(new URL(integration.url).pathname, payload, newKey)).body).toEqual([{ iid, title: payload.title }]);
    expect((await alert(iid)).events).toBe(3);
  });

  it('a deactivated integration gets 403 and counts nothing', async () => {
    const { payload, iid } = await openAlert();
    await sql`update alert_management_http_integrations set active = 0 where id = ${integration.id}`.execute(other.db);
    expect((await post(new URL(integration.url).pathname, payload, integration.token)).status).toBe(403);
    expect((await alert(iid)).events).toBe(2);
  });

  it('a new custom mapping applies to the next post', async () => {
    const { iid } = await openAlert();
    const mapping = JSON.stringify({ fingerprint: { path: ['labels', 'key'], type: 'string' } });
    await sql`update alert_management_http_integrations set payload_attribute_mapping = ${mapping} where id = ${integration.id}`.execute(other.db);
    // Same top-level fingerprint as the open alert, but the mapping now reads labels.key.
    const mapped = await post(new URL(integration.url).pathname, { title: 'Mapped', fingerprint: `remembered-${fingerprintCounter}`, labels: { key: 'elsewhere' } }, integration.token);
    expect(mapped.status).toBe(200);
    expect(mapped.body[0].iid).not.toBe(iid);
    expect((await alert(iid)).events).toBe(2);
  });

  it('a renamed project: the old URL gets 404, the new one is counted', async () => {
    const { payload, iid } = await openAlert();
    const oldPath = new URL(integration.url).pathname;
    const renamed = `${project.path}-moved`;
    await sql`update projects set path = ${renamed}, full_path = ${`${alice.username}/${renamed}`}, full_path_lower = ${`${alice.username}/${renamed}`} where id = ${project.id}`.execute(other.db);
    expect((await post(oldPath, payload, integration.token)).status).toBe(404);
    const newPath = oldPath.replace(`/${project.path}/`, `/${renamed}/`);
    expect((await post(newPath, payload, integration.token)).body).toEqual([{ iid, title: payload.title }]);
    expect((await alert(iid)).events).toBe(3);
  });

  it('a deleted integration gets 403', async () => {
    const { payload } = await openAlert();
    await sql`delete from alert_management_http_integrations where id = ${integration.id}`.execute(other.db);
    expect((await post(new URL(integration.url).pathname, payload, integration.token)).status).toBe(403);
  });
});

describe('a remembered open alert changed by another process', () => {
  it('resolved: the next post opens a new alert, which is counted from then on', async () => {
    const { payload, iid } = await openAlert();
    await sql`update alert_management_alerts set status = 2 where project_id = ${project.id} and iid = ${iid}`.execute(other.db);
    const path = new URL(integration.url).pathname;
    const reopened = await post(path, payload, integration.token);
    expect(reopened.body[0].iid).not.toBe(iid);
    expect((await post(path, payload, integration.token)).body[0].iid).toBe(reopened.body[0].iid);
    expect((await post(path, payload, integration.token)).body[0].iid).toBe(reopened.body[0].iid);
    expect((await alert(reopened.body[0].iid)).events).toBe(3);
    expect((await alert(iid)).events).toBe(2);
  });

  it('resolved by this process: the next post opens a new alert, and the posts after it count on that one', async () => {
    const { payload, iid } = await openAlert();
    const path = new URL(integration.url).pathname;
    const resolved = await post(path, { ...payload, end_time: new Date().toISOString() }, integration.token);
    expect(resolved.body).toEqual([{ iid, title: payload.title }]);
    const reopened = await post(path, payload, integration.token);
    expect(reopened.body[0].iid).not.toBe(iid);
    for (let i = 0; i < 3; i += 1) expect((await post(path, payload, integration.token)).body[0].iid).toBe(reopened.body[0].iid);
    expect((await alert(reopened.body[0].iid)).events).toBe(4);
    expect((await alert(iid)).status).toBe('resolved');
  });

  it('acknowledged: still open, so still counted', async () => {
    const { payload, iid } = await openAlert();
    await sql`update alert_management_alerts set status = 1 where project_id = ${project.id} and iid = ${iid}`.execute(other.db);
    expect((await post(new URL(integration.url).pathname, payload, integration.token)).body).toEqual([{ iid, title: payload.title }]);
    expect((await alert(iid)).events).toBe(3);
  });

  it('deleted with its project: the post gets 404', async () => {
    const { payload } = await openAlert();
    await sql`delete from projects where id = ${project.id}`.execute(other.db);
    expect((await post(new URL(integration.url).pathname, payload, integration.token)).status).toBe(404);
  });
});
