import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let operator: TestUser;
let alice: TestUser;
let shards: string;

beforeAll(async () => {
  shards = mkdtempSync(join(tmpdir(), 'kiln-page-shards-'));
  kiln = await testKiln({
    storages: [
      { name: 'default', path: join(shards, 'default'), weight: 100 },
      { name: 'fast-ssd', path: join(shards, 'fast'), weight: 0 },
    ],
  });
  operator = await kiln.createUser('operator', { admin: true });
  alice = await kiln.createUser('alice');
});
afterAll(async () => {
  await kiln.close();
  rmSync(shards, { recursive: true, force: true });
});

describe('GET /admin/repository_storages', () => {
  it('as an administrator lists the shards with weights and the moves with their states', async () => {
    const group = await kiln.createGroup(alice, 'paged');
    const move = (await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: operator.token, body: { destination_storage_name: 'fast-ssd' } })).body;
    const web = new WebSession(kiln);
    await web.signIn('operator', operator.password);
    const scheduled = await web.get('/admin/repository_storages');
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.body).toMatch(/<tr data-shard="default"><td>default<\/td><td><code>[^<]+<\/code><\/td><td>100<\/td><td>1<\/td><\/tr>/);
    expect(scheduled.body).toMatch(/<tr data-shard="fast-ssd"><td>fast-ssd<\/td><td><code>[^<]+<\/code><\/td><td>0<\/td><td>0<\/td><\/tr>/);
    expect(scheduled.body).toContain(`<tr data-move="${move.id}">`);
    expect(scheduled.body).toContain('<td class="state">scheduled</td>');
    await kiln.worker.drain();
    const finished = await web.get('/admin/repository_storages');
    expect(finished.body).toContain('<td class="state">finished</td>');
  });

  it('as a signed-in non-administrator answers 404', async () => {
    const web = new WebSession(kiln);
    await web.signIn('alice', alice.password);
    expect((await web.get('/admin/repository_storages')).statusCode).toBe(404);
  });

  it('is linked from the navigation for administrators only', async () => {
    const admin = new WebSession(kiln);
    await admin.signIn('operator', operator.password);
    expect((await admin.get('/')).body).toContain('<a href="/admin">Admin</a>');
    expect((await admin.get('/admin')).body).toContain('<a href="/admin/repository_storages">Repository storage</a>');
    const user = new WebSession(kiln);
    await user.signIn('alice', alice.password);
    const home = await user.get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain('/admin/repository_storages');
  });

  it('anonymously redirects to sign-in', async () => {
    const response = await kiln.request('GET', '/admin/repository_storages');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/users/sign_in?return_to=%2Fadmin%2Frepository_storages');
  });
});
