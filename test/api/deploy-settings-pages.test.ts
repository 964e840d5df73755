// The deploy key and deploy token settings pages (issue 37): a maintainer adds, enables, grants write
// access to and removes deploy keys; creates (token shown once) and revokes project deploy tokens; a
// group's Owner does the same for group tokens. Every form refuses a missing CSRF token (422), titles
// and names are escaped, and Developers (project) or Maintainers (group) are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ed25519PublicKey } from '../helpers/ssh.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: any;
let group: any;
let web: WebSession;
let asDeveloper: WebSession;
const KEYS = '/owner/shelf/-/deploy_keys';
const TOKENS = '/owner/shelf/-/deploy_tokens';
const XSS = '<script>alert(1)</script>';

/** A POST with the session's cookie and no CSRF token. */
function forged(session: WebSession, url: string, form: Record<string, string>) {
  return kiln.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shelf');
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  group = await kiln.createGroup(owner, 'crew');
  await kiln.addMember(owner, 'groups', group.id, developer, ACCESS.maintainer);
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
  asDeveloper = new WebSession(kiln);
  await asDeveloper.signIn(developer.username, developer.password);
});
afterAll(async () => {
  await kiln?.close();
});

describe('/:project/-/deploy_keys', () => {
  it('adds a key with write permission (CSRF required, title escaped), keeps the text of a refused one, toggles can_push and removes it', async () => {
    const empty = await web.get(KEYS);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No deploy key is enabled on this project.');
    expect(empty.body).toContain(`href="${KEYS}" aria-current="page"`);

    const key = ed25519PublicKey('ci@build');
    expect((await forged(web, KEYS, { title: 'CI', key })).statusCode).toBe(422);
    expect(await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`)).toEqual([]);

    const added = await web.post(KEYS, { title: XSS, key, can_push: '1', expires_at: '2999-01-31' });
    expect([added.statusCode, added.headers.location]).toEqual([303, KEYS]);
    const [listed] = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`);
    expect([listed.title, listed.can_push, listed.expires_at?.slice(0, 10)]).toEqual([XSS, true, '2999-01-31']);
    const page = await web.get(KEYS);
    expect(page.body).toContain('The deploy key was added.');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain(XSS);
    expect(page.body).toContain(listed.fingerprint_sha256);
    expect(page.body).toMatch(/Read and write · Created \d{4}-\d\d-\d\d · Last used never · Expires 2999-01-31/);

    const refused = await web.post(KEYS, { title: 'Broken', key: 'ssh-ed25519 AAAAnotakey' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/role="alert">[\s\S]*Key/);
    expect(refused.body).toContain('value="Broken"');
    const badDate = await web.post(KEYS, { title: 'Dated', key: ed25519PublicKey(), expires_at: 'someday' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.body).toContain('Expiration date is invalid');

    expect((await forged(web, `${KEYS}/${listed.id}/can_push`, { can_push: '0' })).statusCode).toBe(422);
    const readOnly = await web.post(`${KEYS}/${listed.id}/can_push`, { can_push: '0' }, { csrfFrom: KEYS });
    expect(readOnly.statusCode).toBe(303);
    expect((await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys/${listed.id}`)).can_push).toBe(false);

    expect((await forged(web, `${KEYS}/${listed.id}/disable`, {})).statusCode).toBe(422);
    const removed = await web.post(`${KEYS}/${listed.id}/disable`, {}, { csrfFrom: KEYS });
    expect(removed.statusCode).toBe(303);
    expect((await web.get(KEYS)).body).toContain('The deploy key was removed from this project.');
    expect(await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`)).toEqual([]);
    expect((await web.post(`${KEYS}/${listed.id}/disable`, {}, { csrfFrom: KEYS })).statusCode).toBe(303);
    expect((await web.get(KEYS)).body).toContain('Deploy key not found.');
    expect((await web.post(`${KEYS}/nonsense/disable`, {}, { csrfFrom: KEYS })).statusCode).toBe(303);
  });

  it("offers public keys and keys of the user's other projects to enable, and not a stranger's project key", async () => {
    const other = await kiln.createProject(owner, 'other');
    const mine = await kiln.apiAs(owner, 'POST', `/projects/${other.id}/deploy_keys`, { title: 'Other project key', key: ed25519PublicKey() });
    const shared = await kiln.apiAs(kiln.root, 'POST', '/deploy_keys', { title: 'Instance key', key: ed25519PublicKey() });
    const strangers = await kiln.createProject(stranger, 'secret');
    const theirs = await kiln.apiAs(stranger, 'POST', `/projects/${strangers.id}/deploy_keys`, { title: 'Stranger key', key: ed25519PublicKey() });
    const page = await web.get(KEYS);
    expect(page.body).toContain(`data-available-key="${mine.id}"`);
    expect(page.body).toContain(`data-available-key="${shared.id}"`);
    expect(page.body).not.toContain(`data-available-key="${theirs.id}"`);
    expect(page.body).not.toContain('Stranger key');

    expect((await forged(web, `${KEYS}/${mine.id}/enable`, {})).statusCode).toBe(422);
    expect((await web.post(`${KEYS}/${mine.id}/enable`, {}, { csrfFrom: KEYS })).statusCode).toBe(303);
    expect((await web.post(`${KEYS}/${theirs.id}/enable`, {}, { csrfFrom: KEYS })).statusCode).toBe(303);
    const enabled = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`);
    expect(enabled.map((key: any) => [key.id, key.can_push])).toEqual([[mine.id, false]]);
    const after = await web.get(KEYS);
    expect(after.body).toContain(`data-deploy-key="${mine.id}"`);
    expect(after.body).not.toContain(`data-available-key="${mine.id}"`);
  });

  it('answers 403 to a Developer, and refuses their forms', async () => {
    expect((await asDeveloper.get(KEYS)).statusCode).toBe(403);
    expect((await asDeveloper.post(KEYS, { title: 'x', key: ed25519PublicKey() }, { csrfFrom: '/owner/shelf' })).statusCode).toBe(403);
    const [key] = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`);
    expect((await asDeveloper.post(`${KEYS}/${key.id}/disable`, {}, { csrfFrom: '/owner/shelf' })).statusCode).toBe(403);
    expect(await kiln.apiAs(owner, 'GET', `/projects/${project.id}/deploy_keys`)).toHaveLength(1);
  });
});

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

describe('deploy tokens pages', () => {
  for (const target of [{ kind: 'project', url: TOKENS, api: () => `/projects/${project.id}/deploy_tokens` }, { kind: 'group', url: '/groups/crew/-/deploy_tokens', api: () => `/groups/${group.id}/deploy_tokens` }]) {
    it(`${target.kind}: creates a token shown once (CSRF required, name escaped), refuses bad scopes and lists and revokes it`, async () => {
      const empty = await web.get(target.url);
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toContain(`This ${target.kind} has no active deploy tokens.`);
      expect((await forged(web, target.url, { name: 'ci', scopes: 'read_repository' })).statusCode).toBe(422);

      const noScopes = await web.post(target.url, { name: 'ci' });
      expect(noScopes.statusCode).toBe(400);
      expect(noScopes.body).toContain('Scopes can&#39;t be blank');
      const badScope = await web.post(target.url, { name: 'ci', scopes: 'api' });
      expect(badScope.statusCode).toBe(400);
      expect(badScope.body).toContain('Scopes does not have a valid value');
      const badName = await web.post(target.url, { name: 'ci', scopes: 'read_repository', username: 'no spaces allowed' });
      expect(badName.statusCode).toBe(400);
      expect(badName.body).toContain('value="no spaces allowed"');

      const created = await web.post(target.url, { name: XSS, scopes: 'read_repository', expires_at: '2999-01-31' });
      expect(created.statusCode).toBe(200);
      const token = /id="new-deploy-token" readonly value="(gldt-[^"]+)"/.exec(created.body)?.[1];
      expect(token).toBeDefined();
      expect(created.body).not.toContain(XSS);
      expect(created.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      const [row] = await kiln.apiAs(owner, 'GET', target.api());
      expect([row.username, row.scopes, row.expires_at?.slice(0, 10)]).toEqual([`gitlab+deploy-token-${row.id}`, ['read_repository'], '2999-01-31']);
      expect(created.body).toContain(`value="gitlab+deploy-token-${row.id}"`);
      const stored = await kiln.deps.db.selectFrom('deploy_tokens').select('token_digest').where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(stored.token_digest).toBe(digest(token!));

      // Two checked boxes post the field twice.
      const csrf = /name="authenticity_token" value="([^"]+)"/.exec(created.body)![1];
      const payload = new URLSearchParams([['authenticity_token', csrf], ['name', 'two scopes'], ['scopes[]', 'read_repository'], ['scopes[]', 'write_repository'], ['username', 'builder']]).toString();
      const named = await kiln.app.inject({ method: 'POST', url: target.url, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
      expect(named.statusCode).toBe(200);
      expect(named.body).toContain('value="builder"');
      const listed = await web.get(target.url);
      expect(listed.body).not.toContain(token!);
      expect(listed.body).toContain(`data-deploy-token="${row.id}"`);
      expect(listed.body).toContain('read_repository, write_repository');

      expect((await forged(web, `${target.url}/${row.id}/revoke`, {})).statusCode).toBe(422);
      expect((await web.post(`${target.url}/${row.id}/revoke`, {}, { csrfFrom: target.url })).statusCode).toBe(303);
      const revoked = await web.get(target.url);
      expect(revoked.body).toContain('The deploy token was revoked.');
      expect(revoked.body).not.toContain(`data-deploy-token="${row.id}"`);
      expect((await kiln.apiAs(owner, 'GET', `${target.api()}/${row.id}`)).revoked).toBe(true);
      expect((await web.post(`${target.url}/${row.id}/revoke`, {}, { csrfFrom: target.url })).statusCode).toBe(303);
      expect((await web.get(target.url)).body).toContain('Deploy token not found.');
    });
  }

  it('refuses a project Developer and a group Maintainer', async () => {
    expect((await asDeveloper.get(TOKENS)).statusCode).toBe(403);
    expect((await asDeveloper.post(TOKENS, { name: 'x', scopes: 'read_repository' }, { csrfFrom: '/owner/shelf' })).statusCode).toBe(403);
    expect((await asDeveloper.get('/groups/crew/-/deploy_tokens')).statusCode).toBe(403);
    expect((await asDeveloper.post('/groups/crew/-/deploy_tokens', { name: 'x', scopes: 'read_repository' }, { csrfFrom: '/groups/crew' })).statusCode).toBe(403);
    const [row] = await kiln.apiAs(owner, 'GET', `/groups/${group.id}/deploy_tokens?active=true`);
    expect((await asDeveloper.post(`/groups/crew/-/deploy_tokens/${row.id}/revoke`, {}, { csrfFrom: '/groups/crew' })).statusCode).toBe(403);
  });
});
