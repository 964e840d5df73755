// Feature access levels kept in a project's stored settings (snippets_access_level,
// forking_access_level) decided by the policy itself (policy.ts featureLevel): the project sidebar,
// the API and the pages follow each level alike — enabled for everyone who reads the project,
// private for its members, disabled for nobody (administrators included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { canOnProject } from '../../src/platform/auth/policies/index.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let outsider: TestUser;
let admin: TestUser;
let project: any;
const sessions = new Map<string, WebSession>();

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('levels-owner');
  reporter = await kiln.createUser('levels-reporter');
  outsider = await kiln.createUser('levels-outsider');
  admin = await kiln.createUser('levels-admin', { admin: true });
  project = await kiln.createProject(owner, 'levels', { visibility: 'public' });
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.api('POST', `/projects/${project.id}/snippets`, { token: owner.token, body: { title: 'Open', visibility: 'public', content: 'x' } });
  for (const user of [reporter, outsider, admin]) {
    const web = new WebSession(kiln);
    await web.signIn(user.username, user.password);
    sessions.set(user.username, web);
  }
});
afterAll(() => kiln?.close());

async function setLevel(name: string, level: string) {
  const answer = await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { [name]: level } });
  expect(answer.status).toBe(200);
  expect(answer.body[name]).toBe(level);
}

/** The project page as `user` sees it (anonymous when null). */
async function projectPage(user: TestUser | null) {
  const url = `/${project.path_with_namespace}`;
  return user ? sessions.get(user.username)!.get(url) : kiln.request('GET', url);
}

describe('snippets_access_level', () => {
  const who = () => [['reporter', reporter], ['outsider', outsider], ['anonymous', null], ['admin', admin]] as const;
  const cases = {
    enabled: { reporter: true, outsider: true, anonymous: true, admin: true },
    private: { reporter: true, outsider: false, anonymous: false, admin: true },
    disabled: { reporter: false, outsider: false, anonymous: false, admin: false },
  };
  for (const [level, allowed] of Object.entries(cases)) {
    it(`${level}: the sidebar's Snippets, the API and the snippet pages agree`, async () => {
      await setLevel('snippets_access_level', level);
      for (const [name, user] of who()) {
        const expected = allowed[name];
        const page = await projectPage(user);
        expect([name, page.statusCode]).toEqual([name, 200]);
        expect([name, page.body.includes(`href="/${project.path_with_namespace}/-/snippets"`)]).toEqual([name, expected]);
        const api = await kiln.api('GET', `/projects/${project.id}/snippets`, { token: user?.token });
        expect([name, api.status]).toEqual([name, expected ? 200 : 403]);
        const list = await (user ? sessions.get(user.username)!.get(`/${project.path_with_namespace}/-/snippets`) : kiln.request('GET', `/${project.path_with_namespace}/-/snippets`));
        expect([name, list.statusCode === 200]).toEqual([name, expected]);
      }
      // The policy reads the level from the project row itself: no caller has to pass it.
      const row = await kiln.deps.db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
      expect(canOnProject({ user: null, level: 0, visibility: 'public', features: row }, 'read_snippet')).toBe(allowed.anonymous);
    });
  }

  it('snippets_enabled (the older flag) sets the same level', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: false } })).body.snippets_access_level).toBe('disabled');
    expect((await kiln.api('GET', `/projects/${project.id}/snippets`, { token: reporter.token })).status).toBe(403);
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: true } })).body.snippets_access_level).toBe('enabled');
    expect((await kiln.api('GET', `/projects/${project.id}/snippets`, { token: reporter.token })).status).toBe(200);
  });
});

describe('forking_access_level', () => {
  const cases = {
    enabled: { reporter: true, outsider: true },
    private: { reporter: true, outsider: false },
    disabled: { reporter: false, outsider: false },
  };
  for (const [level, allowed] of Object.entries(cases)) {
    it(`${level}: the project page's Fork button and the fork form agree`, async () => {
      await setLevel('forking_access_level', level);
      for (const [name, user] of [['reporter', reporter], ['outsider', outsider]] as const) {
        const page = await projectPage(user);
        expect([name, page.body.includes('id="fork-project"')]).toEqual([name, allowed[name]]);
        const form = await sessions.get(user.username)!.get(`/${project.path_with_namespace}/-/forks/new`);
        expect([name, form.statusCode === 200]).toEqual([name, allowed[name]]);
      }
      expect((await projectPage(null)).body.includes('id="fork-project"')).toBe(false);
    });
  }
});
