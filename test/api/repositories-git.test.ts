// Git smart HTTP with the real git client against an in-process Kiln listening on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { testKiln, testSecrets, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let group: any;
let project: any;




function url(user: { username: string } | null, secret: string | null, path: string): string {
  const credentials = user ? `${encodeURIComponent(user.username)}:${encodeURIComponent(secret ?? '')}@` : '';
  return `${base.replace('http://', `http://${credentials}`)}/${path}`;
}

let counter = 0;
async function commitIn(dir: string, message: string): Promise<string> {
  counter += 1;
  writeFileSync(join(dir, `file-${counter}.txt`), `content ${counter}\n`);
  await ok(['add', '.'], dir);
  await ok(['commit', '-q', '-m', message], dir);
  return (await ok(['rev-parse', 'HEAD'], dir)).trim();
}

async function pushEvents(): Promise<any[]> {
  return (await kiln.deps.db.selectFrom('events').selectAll().where('project_id', '=', project.id).where('action', '=', 'pushed').orderBy('id').execute()).map((row) => ({
    author_id: Number(row.author_id),
    ...JSON.parse(row.push_data as string),
  }));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-git-'));
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  group = await kiln.createGroup(alice, 'team');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.reporter);
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('GET /:namespace/:project.git/info/refs', () => {
  it('anonymously on a private project answers 401 with a Basic challenge', async () => {
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="Kiln"');
  });

  it('with a wrong password answers 401', async () => {
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from('alice:wrong').toString('base64')}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('as a member with a token advertises refs through git http-backend', async () => {
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`oauth2:${alice.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
    expect(response.body.startsWith('001e# service=git-upload-pack\n')).toBe(true);
  });

  it('without a smart service (the dumb protocol) answers 404', async () => {
    const response = await kiln.request('GET', '/team/app.git/info/refs', {
      headers: { authorization: `Basic ${Buffer.from(`oauth2:${alice.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(404);
  });

  it('as a non-member answers 404, as for an unknown project', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`carol:${carol.token}`).toString('base64')}` };
    expect((await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', { headers: auth })).statusCode).toBe(404);
    expect((await kiln.request('GET', '/team/nope.git/info/refs?service=git-upload-pack', { headers: auth })).statusCode).toBe(404);
  });

  it('answers 404 for path traversal', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`oauth2:${alice.token}`).toString('base64')}` };
    for (const path of ['/team/%2e%2e/app.git/info/refs', '/team/../../etc.git/info/refs', '/team/.hidden.git/info/refs', '/team//app.git/info/refs', '/%2e%2e%2fteam/app.git/info/refs']) {
      const response = await kiln.request('GET', `${path}?service=git-upload-pack`, { headers: auth });
      expect(response.statusCode, path).toBe(404);
    }
  });

  it('with a token of a blocked user answers 403', async () => {
    const dave = await kiln.createUser('dave');
    await kiln.addMember(alice, 'projects', project.id, dave, ACCESS.developer);
    await kiln.deps.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', dave.id).execute();
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`dave:${dave.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(403);
  });

  it('with a token whose scopes do not cover repositories answers 403', async () => {
    const eve = await kiln.createUser('eve', { scopes: ['read_user'] });
    await kiln.addMember(alice, 'projects', project.id, eve, ACCESS.developer);
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`eve:${eve.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toBe('You are not allowed to download code.\n');
  });

  it('with a read_repository token refuses a push with GitLab\'s sentence', async () => {
    const reader = await kiln.createUser('reader', { scopes: ['read_repository'] });
    await kiln.addMember(alice, 'projects', project.id, reader, ACCESS.developer);
    const basic = { authorization: `Basic ${Buffer.from(`reader:${reader.token}`).toString('base64')}` };
    expect((await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', { headers: basic })).statusCode).toBe(200);
    const push = await kiln.request('GET', '/team/app.git/info/refs?service=git-receive-pack', { headers: basic });
    expect(push.statusCode).toBe(403);
    expect(push.body).toBe('You are not allowed to upload code.\n');
  });

  it('as a guest of a private project answers 403: reading code needs Reporter', async () => {
    const guest = await kiln.createUser('guest');
    await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`guest:${guest.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toBe('You are not allowed to download code from this project.\n');
  });

  it('as a guest of a public or internal project reads the code', async () => {
    const visitor = await kiln.createUser('visitor');
    for (const visibility of ['public', 'internal']) {
      const open = await kiln.createProject(alice, `open-${visibility}`, { visibility });
      await kiln.addMember(alice, 'projects', open.id, visitor, ACCESS.guest);
      const response = await kiln.request('GET', `/${open.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: `Basic ${Buffer.from(`visitor:${visitor.token}`).toString('base64')}` },
      });
      expect(response.statusCode, visibility).toBe(200);
    }
  });

  it('anonymously on an internal project asks for credentials', async () => {
    const internal = await kiln.createProject(alice, 'inside', { visibility: 'internal' });
    const response = await kiln.request('GET', `/${internal.path_with_namespace}.git/info/refs?service=git-upload-pack`);
    expect(response.statusCode).toBe(401);
  });
});

describe('git clone and git push of a project', () => {
  it('as the owner with a personal access token: clone an empty repository, push, and record push events', async () => {
    const dir = join(work, 'alice-app');
    const cloned = await gitRun(['clone', url({ username: 'oauth2' }, alice.token, 'team/app.git'), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).toContain('empty repository');
    const first = await commitIn(dir, 'First commit');
    const second = await commitIn(dir, 'Second commit with a title that is definitely longer than seventy characters in all');
    await ok(['push', '-q', 'origin', 'main'], dir);
    const events = await pushEvents();
    expect(events).toEqual([
      {
        author_id: alice.id,
        commit_count: 2,
        action: 'created',
        ref_type: 'branch',
        commit_from: null,
        commit_to: second,
        ref: 'main',
        commit_title: 'Second commit with a title that is definitely longer than seventy c...',
        ref_count: null,
      },
    ]);
    expect(first).not.toBe(second);

    const third = await commitIn(dir, 'Third commit');
    await ok(['push', '-q', 'origin', 'main'], dir);
    await ok(['tag', 'v1.0'], dir);
    await ok(['push', '-q', 'origin', 'v1.0'], dir);
    await ok(['push', '-q', 'origin', 'main:topic'], dir);
    await ok(['push', '-q', 'origin', ':topic'], dir);
    const later = (await pushEvents()).slice(1);
    expect(later).toEqual([
      { author_id: alice.id, commit_count: 1, action: 'pushed', ref_type: 'branch', commit_from: second, commit_to: third, ref: 'main', commit_title: 'Third commit', ref_count: null },
      { author_id: alice.id, commit_count: 0, action: 'created', ref_type: 'tag', commit_from: null, commit_to: third, ref: 'v1.0', commit_title: 'Third commit', ref_count: null },
      { author_id: alice.id, commit_count: 0, action: 'created', ref_type: 'branch', commit_from: null, commit_to: third, ref: 'topic', commit_title: 'Third commit', ref_count: null },
      { author_id: alice.id, commit_count: 0, action: 'removed', ref_type: 'branch', commit_from: third, commit_to: null, ref: 'topic', commit_title: null, ref_count: null },
    ]);
  });

  it('the push events appear in GET /api/v4/projects/:id/events with GitLab action names', async () => {
    const { status, body } = await kiln.api('GET', `/projects/${project.id}/events?action=pushed&sort=asc`, { token: alice.token });
    expect(status).toBe(200);
    expect(body.map((event: any) => [event.action_name, event.push_data.ref, event.push_data.action])).toEqual([
      ['pushed new', 'main', 'created'],
      ['pushed to', 'main', 'pushed'],
      ['pushed new', 'v1.0', 'created'],
      ['pushed new', 'topic', 'created'],
      ['deleted', 'topic', 'removed'],
    ]);
    expect(body[0].author_username).toBe('alice');
  });

  it('a push of more than three tags records one bulk event with ref_count', async () => {
    const dir = join(work, 'alice-app');
    for (const tag of ['t1', 't2', 't3', 't4']) await ok(['tag', tag], dir);
    const before = (await pushEvents()).length;
    await ok(['push', '-q', 'origin', '--tags'], dir);
    const events = (await pushEvents()).slice(before);
    expect(events).toEqual([{ author_id: alice.id, commit_count: 0, action: 'created', ref_type: 'tag', commit_from: null, commit_to: null, ref: null, commit_title: null, ref_count: 4 }]);
    const { body } = await kiln.api('GET', `/projects/${project.id}/events?action=pushed&sort=desc&per_page=1`, { token: alice.token });
    expect(body[0].action_name).toBe('pushed new');
    expect(body[0].push_data.ref_count).toBe(4);
  });

  it('as the owner with the account password clones', async () => {
    const result = await gitRun(['clone', '-q', url(alice, alice.password, 'team/app.git'), join(work, 'by-password')]);
    expect(result.code, result.stderr).toBe(0);
  });

  it('does not lock the account after ten wrong passwords: git failures count against the address, not the victim', async () => {
    const frank = await kiln.createUser('frank');
    await kiln.addMember(alice, 'projects', project.id, frank, ACCESS.developer);
    const attempt = (password: string, remoteAddress: string) =>
      kiln.app.inject({ method: 'GET', url: '/team/app.git/info/refs?service=git-upload-pack', remoteAddress, headers: { authorization: `Basic ${Buffer.from(`frank:${password}`).toString('base64')}` } });
    for (let i = 0; i < 10; i += 1) expect((await attempt('wrong-password', '192.0.2.10')).statusCode).toBe(401);
    // From another address (the sprayer's is banned now), the victim's password still works at once.
    expect((await attempt(frank.password, '192.0.2.11')).statusCode).toBe(200);
    const row = await kiln.deps.db.selectFrom('users').select(['failed_attempts', 'locked_until']).where('id', '=', frank.id).executeTakeFirstOrThrow();
    expect([Number(row.failed_attempts), row.locked_until]).toEqual([0, null]);
  });

  it('accepts the e-mail address as the user name with the account password', async () => {
    const response = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`alice@example.com:${alice.password}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses the account password of a user with two-factor authentication, saying a token is required and where to make one', async () => {
    await kiln.deps.db.updateTable('users').set({ otp_required: 1 }).where('id', '=', bob.id).execute();
    const refused = await gitRun(['clone', '-q', url(bob, bob.password, 'team/app.git'), join(work, 'bob-2fa')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: You must use a personal access token with 'read_repository' or 'write_repository' scope for Git over HTTP.");
    expect(refused.stderr).toContain(`remote: You can generate one at ${kiln.deps.config.baseUrl}/profile/personal_access_tokens`);
    const wrong = await kiln.request('GET', '/team/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from('bob:not-his-password').toString('base64')}` },
    });
    // A wrong password says nothing about the account.
    expect([wrong.statusCode, wrong.body]).toEqual([401, 'HTTP Basic: Access denied\n']);
    const withToken = await gitRun(['clone', '-q', url(bob, bob.token, 'team/app.git'), join(work, 'bob-token')]);
    expect(withToken.code, withToken.stderr).toBe(0);
    await kiln.deps.db.updateTable('users').set({ otp_required: 0 }).where('id', '=', bob.id).execute();
  });

  it('accepts an OAuth token registered by the OAuth feature', async () => {
    kiln.deps.auth.oauth.push(async (token) =>
      token === 'oauth-token-for-alice'
        ? { status: 'ok', principal: { user: { id: alice.id, username: 'alice', name: 'Alice', state: 'active', admin: false, otpRequired: false }, scopes: ['api'], via: 'oauth', tokenId: 1 } }
        : null,
    );
    const result = await gitRun(['clone', '-q', url({ username: 'oauth2' }, 'oauth-token-for-alice', 'team/app.git'), join(work, 'by-oauth')]);
    expect(result.code, result.stderr).toBe(0);
  });

  it('as a reporter clones but cannot push', async () => {
    const dir = join(work, 'bob-app');
    await ok(['clone', '-q', url(bob, bob.token, 'team/app.git'), dir]);
    await commitIn(dir, 'Reporter commit');
    const pushed = await gitRun(['push', 'origin', 'main'], dir);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('remote: You are not allowed to push code to this project.');
  });

  it('anonymously clones a public project but is asked for credentials to push', async () => {
    const open = await kiln.createProject(alice, 'open', { visibility: 'public' });
    const dir = join(work, 'anonymous-open');
    const cloned = await gitRun(['clone', '-q', `${base}/${open.path_with_namespace}.git`, dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    const info = await kiln.request('GET', `/${open.path_with_namespace}.git/info/refs?service=git-receive-pack`);
    expect(info.statusCode).toBe(401);
    expect(info.headers['www-authenticate']).toBe('Basic realm="Kiln"');
  });

  it('as a guest of the private project cannot clone: git shows GitLab\'s sentence', async () => {
    const gina = await kiln.createUser('gina');
    await kiln.addMember(alice, 'projects', project.id, gina, ACCESS.guest);
    const result = await gitRun(['clone', '-q', url(gina, gina.token, 'team/app.git'), join(work, 'gina-app')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('remote: You are not allowed to download code from this project.');
    expect(result.stderr).toContain('403');
  });

  it('as a non-member cannot clone', async () => {
    const result = await gitRun(['clone', '-q', url(carol, carol.token, 'team/app.git'), join(work, 'carol-app')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not found|404/i);
  });

  it('streams a gzip-compressed upload-pack request into git http-backend', async () => {
    const head = (await kiln.deps.db.selectFrom('events').select('push_data').where('project_id', '=', project.id).where('action', '=', 'pushed').orderBy('id').executeTakeFirstOrThrow()).push_data as string;
    const want = JSON.parse(head).commit_to as string;
    const pkt = (line: string) => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
    const body = gzipSync(Buffer.from(`${pkt(`want ${want}\n`)}0000${pkt('done\n')}`));
    const response = await kiln.app.inject({
      method: 'POST',
      url: '/team/app.git/git-upload-pack',
      headers: {
        authorization: `Basic ${Buffer.from(`oauth2:${alice.token}`).toString('base64')}`,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-git-upload-pack-result');
    expect(response.rawPayload.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(response.rawPayload.includes(Buffer.from('PACK'))).toBe(true);
  });
});

describe('git clone and git push of a group wiki', () => {
  it('as the group owner pushes and clones /<group>.wiki.git', async () => {
    const dir = join(work, 'wiki');
    await ok(['clone', '-q', url(alice, alice.token, 'team.wiki.git'), dir]);
    await commitIn(dir, 'Home page');
    await ok(['push', '-q', 'origin', 'main'], dir);
    const again = join(work, 'wiki-again');
    await ok(['clone', '-q', url(alice, alice.token, 'team.wiki.git'), again]);
    expect((await ok(['log', '--format=%s'], again)).trim()).toBe('Home page');
  });

  it('as a non-member answers 404', async () => {
    const response = await kiln.request('GET', '/team.wiki.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${Buffer.from(`carol:${carol.token}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('git Basic authentication failures from one address (GitLab: 10 a minute → banned for an hour)', () => {
  const attempt = (app: Kiln['app'], remoteAddress: string, user: TestUser | null, secret?: string) =>
    app.inject({
      method: 'GET',
      url: '/team/app.git/info/refs?service=git-upload-pack',
      remoteAddress,
      headers: user ? { authorization: `Basic ${Buffer.from(`${user.username}:${secret ?? user.password}`).toString('base64')}` } : {},
    });

  it('the tenth failure bans the address: 403 Forbidden even with the right password, other addresses unaffected, lifted after an hour', async () => {
    for (let i = 0; i < 10; i += 1) expect((await attempt(kiln.app, '198.51.100.1', alice, 'wrong')).statusCode).toBe(401);
    const banned = await attempt(kiln.app, '198.51.100.1', alice);
    expect([banned.statusCode, banned.body]).toEqual([403, 'Forbidden\n']);
    expect((await attempt(kiln.app, '198.51.100.1', null)).statusCode).toBe(403);
    expect((await attempt(kiln.app, '198.51.100.1', { ...alice, password: alice.token })).statusCode).toBe(403);
    expect((await attempt(kiln.app, '198.51.100.2', alice)).statusCode).toBe(200);
    kiln.clock.advance(59 * 60_000);
    expect((await attempt(kiln.app, '198.51.100.1', alice)).statusCode).toBe(403);
    kiln.clock.advance(61_000);
    expect((await attempt(kiln.app, '198.51.100.1', alice)).statusCode).toBe(200);
  });

  it('nine failures do not ban, and a success clears the count', async () => {
    for (let i = 0; i < 9; i += 1) expect((await attempt(kiln.app, '198.51.100.3', alice, 'wrong')).statusCode).toBe(401);
    expect((await attempt(kiln.app, '198.51.100.3', alice)).statusCode).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await attempt(kiln.app, '198.51.100.3', alice, 'wrong')).statusCode).toBe(401);
    expect((await attempt(kiln.app, '198.51.100.3', alice)).statusCode).toBe(200);
  });

  it('failures in different minutes do not add up', async () => {
    kiln.clock.advance(60_000 - (kiln.clock.now() % 60_000));
    for (let i = 0; i < 9; i += 1) expect((await attempt(kiln.app, '198.51.100.4', alice, 'wrong')).statusCode).toBe(401);
    kiln.clock.advance(60_000);
    expect((await attempt(kiln.app, '198.51.100.4', alice, 'wrong')).statusCode).toBe(401);
    expect((await attempt(kiln.app, '198.51.100.4', alice)).statusCode).toBe(200);
  });

  it('anonymous requests and unknown tokens: only requests with credentials count', async () => {
    for (let i = 0; i < 12; i += 1) expect((await attempt(kiln.app, '198.51.100.5', null)).statusCode).toBe(401);
    expect((await attempt(kiln.app, '198.51.100.5', alice)).statusCode).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await attempt(kiln.app, '198.51.100.6', { ...alice, username: 'oauth2' }, 'glpat-not-a-token')).statusCode).toBe(401);
    expect((await attempt(kiln.app, '198.51.100.6', alice)).statusCode).toBe(403);
  });

  it('the ban is kept in the database: a second node sharing it refuses the address too', async () => {
    const node2: Kiln = await startKiln(kiln.config, { clock: kiln.clock, log: pino({ level: 'silent' }), database: kiln.testDb.reopen(), secrets: testSecrets() });
    try {
      for (let i = 0; i < 5; i += 1) expect((await attempt(kiln.app, '198.51.100.7', alice, 'wrong')).statusCode).toBe(401);
      for (let i = 0; i < 5; i += 1) expect((await attempt(node2.app, '198.51.100.7', alice, 'wrong')).statusCode).toBe(401);
      expect((await attempt(node2.app, '198.51.100.7', alice)).statusCode).toBe(403);
      expect((await attempt(kiln.app, '198.51.100.7', alice)).statusCode).toBe(403);
    } finally {
      await node2.close();
    }
  });
});
