// Issue 13 (authorization) as real clients meet it, against a started `kiln serve`: python-gitlab 3.12
// (Debian) is refused the member changes GitLab refuses (a Maintainer making themselves Owner, adding
// an Owner, removing the Owner: 403), anonymous listings show public projects only (python-gitlab and
// @gitbeaker/rest), a Guest of a private project cannot read its confidential issue, and a real `git`
// clone is refused to the Guest while the Reporter's succeeds. On PostgreSQL when
// KILN_TEST_DATABASE_URL names a server (a fresh database each run), else SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';
import { runPython } from './helpers/python.js';

interface Person { id: number; username: string; token: string }

let kiln: KilnProcess;
let work: string;
let owner: Person;
let maintainer: Person;
let outsider: Person;
let guest: Person;
let reporter: Person;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let secret: { id: number; path_with_namespace: string };
let confidentialIid: number;
let openIid: number;
let database: FreshPostgres | null = null;

async function start(): Promise<KilnProcess> {
  database = await freshPostgres('authorization');
  return startKilnProcess(database ? { env: { KILN_DATABASE_URL: database.url } } : undefined);
}

async function person(username: string): Promise<Person> {
  const user = await apiCall(kiln, 'POST', '/users', { username, name: username, email: `${username}@example.com`, password: `${username}-password-1` });
  const { token } = await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'client', scopes: ['api'] });
  return { id: user.id, username, token };
}

function git(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, {
      cwd: work, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    }, (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }));
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-client-authz-'));
  kiln = await start();
  [owner, maintainer, outsider, guest, reporter] = await Promise.all(['olive', 'mona', 'otto', 'gus', 'rita'].map(person));
  // The group and the project belong to olive (their Owner); mona maintains both.
  group = await apiCall(kiln, 'POST', '/groups', { name: 'authz', path: 'authz' }, owner.token);
  await apiCall(kiln, 'POST', `/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token);
  project = await apiCall(kiln, 'POST', '/projects', { name: 'kept', path: 'kept' }, owner.token);
  // Olive is also a direct Owner of the project, so that removing her is a member change to refuse.
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: owner.id, access_level: 50 });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token);
  // Three visibilities for the anonymous listing, and a private project with a Guest and a Reporter.
  for (const visibility of ['private', 'internal', 'public']) {
    await apiCall(kiln, 'POST', '/projects', { name: `seen-${visibility}`, path: `seen-${visibility}`, visibility }, owner.token);
  }
  secret = await apiCall(kiln, 'POST', '/projects', { name: 'secret', path: 'secret', visibility: 'private' }, owner.token);
  await apiCall(kiln, 'POST', `/projects/${secret.id}/members`, { user_id: guest.id, access_level: 10 }, owner.token);
  await apiCall(kiln, 'POST', `/projects/${secret.id}/members`, { user_id: reporter.id, access_level: 20 }, owner.token);
  confidentialIid = (await apiCall(kiln, 'POST', `/projects/${secret.id}/issues`, { title: 'hidden', confidential: true }, owner.token)).iid;
  openIid = (await apiCall(kiln, 'POST', `/projects/${secret.id}/issues`, { title: 'open' }, owner.token)).iid;
});
afterAll(async () => {
  await kiln?.stop();
  await database?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

// `kind` is "project" or "group"; every refusal is recorded as [exception class, response code].
const PYTHON_MEMBER_TAKEOVER = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
source = (gl.projects if os.environ["KIND"] == "project" else gl.groups).get(os.environ["SOURCE"])
me, owner, outsider = int(os.environ["ME"]), int(os.environ["OWNER"]), int(os.environ["OUTSIDER"])
out = {}
def refused(name, action):
    try:
        action()
        out[name] = "allowed"
    except gitlab.exceptions.GitlabError as err:
        out[name] = [type(err).__name__, err.response_code]
def promote_self():
    member = source.members.get(me)
    member.access_level = gitlab.const.OWNER_ACCESS
    member.save()
refused("promote_self", promote_self)
refused("add_owner", lambda: source.members.create({"user_id": outsider, "access_level": gitlab.const.OWNER_ACCESS}))
refused("remove_owner", lambda: source.members.delete(owner))
refused("add_developer", lambda: source.members.create({"user_id": outsider, "access_level": gitlab.const.DEVELOPER_ACCESS}))
out["members"] = sorted([m.username, m.access_level] for m in source.members.list())
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  // A project's Maintainer manages members below Owner; a group's members are managed by its Owners
  // alone (GitLab's group policy), so there even a Developer is refused.
  describe.each([
    ['project', () => project.path_with_namespace, 'project.members', 'allowed', [['mona', 40], ['olive', 50], ['otto', 30]]],
    ['group', () => group.full_path, 'group.members', ['GitlabCreateError', 403], [['mona', 40], ['olive', 50]]],
  ])('as a Maintainer of a %s', (kind, source, manager, addDeveloper, members) => {
    it(`is refused with 403 through ${manager}: promoting themself to Owner, adding an Owner, removing the Owner`, async () => {
      const { stdout } = await runPython(PYTHON_MEMBER_TAKEOVER, {
        URL: kiln.url, TOKEN: maintainer.token, KIND: kind, SOURCE: source(), ME: String(maintainer.id), OWNER: String(owner.id), OUTSIDER: String(outsider.id),
      });
      const out = JSON.parse(stdout);
      expect(out.promote_self).toEqual(['GitlabUpdateError', 403]);
      expect(out.add_owner).toEqual(['GitlabCreateError', 403]);
      expect(out.remove_owner).toEqual(['GitlabDeleteError', 403]);
      expect(out.add_developer).toEqual(addDeveloper);
      expect(out.members).toEqual(members);
    });
  });

  describe('anonymous', () => {
    it('gitlab.Gitlab(url).projects.list() sees the public projects only', async () => {
      const { stdout } = await runPython(`
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"])
print(json.dumps(sorted([p.path_with_namespace, p.visibility] for p in gl.projects.list(get_all=True))))
`, { URL: kiln.url });
      expect(JSON.parse(stdout)).toEqual([['olive/seen-public', 'public']]);
    });
  });

  describe('as a Guest of a private project', () => {
    it('cannot read its confidential issue (404) nor see it listed, but reads the others', async () => {
      const { stdout } = await runPython(`
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {"listed": sorted(i.title for i in p.issues.list(get_all=True)), "open": p.issues.get(int(os.environ["OPEN"])).title}
try:
    p.issues.get(int(os.environ["IID"]))
    out["confidential"] = "read"
except gitlab.exceptions.GitlabGetError as err:
    out["confidential"] = err.response_code
print(json.dumps(out))
`, { URL: kiln.url, TOKEN: guest.token, PROJECT: secret.path_with_namespace, IID: String(confidentialIid), OPEN: String(openIid) });
      expect(JSON.parse(stdout)).toEqual({ listed: ['open'], open: 'open', confidential: 404 });
    });
  });
});

describe('@gitbeaker/rest', () => {
  it('anonymous Projects.all() sees the public projects only', async () => {
    const api = new Gitlab({ host: kiln.url } as ConstructorParameters<typeof Gitlab>[0]);
    const projects = await api.Projects.all();
    expect(projects.map((p) => [p.path_with_namespace, p.visibility])).toEqual([['olive/seen-public', 'public']]);
  });
});

describe('git over HTTP', () => {
  function remote(who: Person): string {
    return `${kiln.url.replace('http://', `http://${who.username}:${who.token}@`)}/${secret.path_with_namespace}.git`;
  }

  it('refuses a clone of a private project to its Guest, and lets its Reporter clone', async () => {
    const refused = await git(['clone', '-q', remote(guest), 'as-guest']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not found|403|could not be found|not allowed|denied/i);
    const allowed = await git(['clone', '-q', remote(reporter), 'as-reporter']);
    expect(allowed.stderr).not.toMatch(/fatal/);
    expect(allowed.code).toBe(0);
  });
});
