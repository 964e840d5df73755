// python-gitlab 3.12 (Debian) and @gitbeaker/rest against a started `kiln serve`: editing, moving and
// deleting projects, groups and users, stars and e-mail addresses, as users run those clients.
// On PostgreSQL when KILN_TEST_DATABASE_URL names a server (a fresh database each run), else SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let database: FreshPostgres | null = null;

beforeAll(async () => {
  database = await freshPostgres('accounts_breadth');
  kiln = await startKilnProcess(database ? { env: { KILN_DATABASE_URL: database.url } } : undefined);
});
afterAll(async () => {
  await kiln?.stop();
  await database?.drop();
});

/** The background worker of `kiln serve` deletes groups and users: wait until it has. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen`);
}

async function status(path: string): Promise<number> {
  return (await fetch(`${kiln.url}/api/v4${path}`, { headers: { 'private-token': kiln.rootToken } })).status;
}

const PYTHON_FLOWS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
out = {}
group = gl.groups.create({"name": "py-group", "path": "py-group", "visibility": "public"})
sub = gl.groups.create({"name": "py-sub", "path": "py-sub", "parent_id": group.id, "visibility": "public"})
project = gl.projects.create({"name": "py-project", "namespace_id": group.id, "visibility": "public"})

# project.save() after a rename: the old path keeps answering
project.name = "Renamed"
project.path = "renamed"
project.description = "saved by python-gitlab"
project.topics = ["one", "two"]
project.save()
again = gl.projects.get("py-group/py-project")
out["renamed"] = [again.id == project.id, again.name, again.path_with_namespace, again.description, again.topics]

# stars
project.star()
out["star_count"] = gl.projects.get(project.id).star_count
try:
    project.star()
except gitlab.exceptions.GitlabCreateError as err:
    out["star_again"] = err.response_code
project.unstar()
out["star_count_after"] = gl.projects.get(project.id).star_count

# group.save(), group.projects.list(), group.subgroups.list()
group.description = "saved group"
group.save()
out["group"] = gl.groups.get(group.id).description
out["group_projects"] = [p.path for p in group.projects.list()]
out["subgroups"] = [g.full_path for g in group.subgroups.list()]
out["descendants"] = [g.full_path for g in group.descendant_groups.list()]

# e-mails of a user, by the administrator
user = gl.users.create({"username": "py-user", "name": "Py User", "email": "py-user@example.com", "password": "py-user-password-1"})
email = user.emails.create({"email": "py-second@example.com"})
out["emails"] = sorted([[e.email, e.confirmed_at is not None] for e in user.emails.list()])
email.delete()
out["emails_after"] = [e.email for e in user.emails.list()]
out["blocked"] = user.block()
out["unblocked"] = user.unblock()

# project.transfer(), group.transfer(), group.transfer_project()
target = gl.groups.create({"name": "py-target", "path": "py-target", "visibility": "public"})
moving = gl.projects.create({"name": "py-moving", "visibility": "public"})
moving.transfer(target.id)
out["transferred"] = gl.projects.get(moving.id).path_with_namespace
loose = gl.groups.create({"name": "py-loose", "path": "py-loose", "visibility": "public"})
loose.transfer(target.id)
out["group_transferred"] = gl.groups.get(loose.id).full_path
other = gl.projects.create({"name": "py-other", "visibility": "public"})
target.transfer_project(other.id)
out["transfer_project"] = gl.projects.get(other.id).path_with_namespace

# user.delete() and group.delete()
user.delete()
group.delete()
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('saves a renamed project, stars it, saves and lists a group, manages e-mails, deletes a user and a group', async () => {
    const { stdout } = await runPython(PYTHON_FLOWS, { URL: kiln.url, TOKEN: kiln.rootToken });
    const out = JSON.parse(stdout);
    expect(out.renamed).toEqual([true, 'Renamed', 'py-group/renamed', 'saved by python-gitlab', ['one', 'two']]);
    expect(out.star_count).toBe(1);
    expect(out.star_again).toBe(304);
    expect(out.star_count_after).toBe(0);
    expect(out.group).toBe('saved group');
    expect(out.group_projects).toEqual(['renamed']);
    expect(out.subgroups).toEqual(['py-group/py-sub']);
    expect(out.descendants).toEqual(['py-group/py-sub']);
    expect(out.emails).toEqual([['py-second@example.com', false], ['py-user@example.com', true]]);
    expect(out.emails_after).toEqual(['py-user@example.com']);
    expect([out.blocked, out.unblocked]).toEqual([true, true]);
    expect([out.transferred, out.group_transferred, out.transfer_project]).toEqual(['py-target/py-moving', 'py-target/py-loose', 'py-target/py-other']);
    await eventually(async () => (await status('/groups/py-group')) === 404, 'the group deletion');
    expect(await status('/projects/py-group%2Frenamed')).toBe(404);
    await eventually(async () => (await apiCall(kiln, 'GET', '/users?username=py-user')).length === 0, 'the user deletion');
  });
});

describe('@gitbeaker/rest', () => {
  it('edits, transfers, stars, gives an avatar to and deletes a project; edits, lists and deletes a group', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    const group = await api.Groups.create('gb-group', 'gb-group', { visibility: 'public' });
    const target = await api.Groups.create('gb-target', 'gb-target', { visibility: 'public' });
    await api.Groups.create('gb-sub', 'gb-sub', { parentId: group.id, visibility: 'public' });
    const project = await api.Projects.create({ name: 'gb-project', namespaceId: group.id, visibility: 'public' });

    const edited = await api.Projects.edit(project.id, { description: 'by gitbeaker', topics: ['x'], issuesAccessLevel: 'private', path: 'gb-renamed' });
    expect(edited).toMatchObject({ description: 'by gitbeaker', topics: ['x'], issues_access_level: 'private', path_with_namespace: 'gb-group/gb-renamed' });
    expect((await api.Projects.show('gb-group/gb-project')).id).toBe(project.id);
    // A real git clone through the old URL reaches the renamed project.
    await api.Commits.create(project.id, 'main', 'first', [{ action: 'create', filePath: 'README.md', content: 'hello' }]);
    const work = mkdtempSync(join(tmpdir(), 'kiln-client-rename-'));
    try {
      const oldUrl = `${kiln.url.replace('http://', `http://root:${kiln.rootToken}@`)}/gb-group/gb-project.git`;
      await new Promise<void>((resolve, reject) =>
        execFile('git', ['clone', '-q', oldUrl, join(work, 'clone')], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' } }, (error, _out, stderr) =>
          error ? reject(new Error(stderr)) : resolve(),
        ),
      );
      expect(readFileSync(join(work, 'clone', 'README.md'), 'utf8')).toBe('hello');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }

    expect((await api.Projects.star(project.id)).star_count).toBe(1);
    expect((await api.Projects.unstar(project.id)).star_count).toBe(0);

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const withAvatar = await api.Projects.uploadAvatar(project.id, { content: new Blob([new Uint8Array(png)], { type: 'image/png' }), filename: 'gb.png' });
    expect(withAvatar.avatar_url).toBe(`${kiln.url}/uploads/-/system/project/avatar/${project.id}/gb.png`);
    expect(new Uint8Array(await (await fetch(withAvatar.avatar_url as string)).arrayBuffer())).toEqual(new Uint8Array(png));

    const moved = await api.Projects.transfer(project.id, target.id);
    expect(moved.path_with_namespace).toBe('gb-target/gb-renamed');

    const users = await api.Projects.allUsers(project.id);
    expect(users.map((user) => user.username)).toEqual(['root']);

    expect((await api.Groups.edit(group.id, { description: 'group by gitbeaker' })).description).toBe('group by gitbeaker');
    expect((await api.Groups.allSubgroups(group.id)).map((g) => g.full_path)).toEqual(['gb-group/gb-sub']);
    expect((await api.Groups.allDescendantGroups(group.id, {})).map((g) => g.full_path)).toEqual(['gb-group/gb-sub']);
    expect((await api.Groups.allProjects(target.id)).map((p) => p.path)).toEqual(['gb-renamed']);
    await api.Groups.removeAvatar(group.id);

    await api.Projects.remove(project.id);
    await api.Groups.remove(group.id);
    await eventually(async () => (await status(`/groups/${group.id}`)) === 404, 'the group deletion');
  });

  it('manages a user: e-mails, block and unblock, activities, deletion to the ghost user', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    const user = await api.Users.create({ username: 'gb-user', name: 'Gb User', email: 'gb-user@example.com', password: 'gb-user-password-1' });
    const email = await api.UserEmails.create('gb-second@example.com', { userId: user.id, skipConfirmation: true });
    expect(email.confirmed_at).not.toBeNull();
    expect((await api.UserEmails.all({ userId: user.id })).map((e) => e.email)).toEqual(['gb-user@example.com', 'gb-second@example.com']);
    await api.UserEmails.remove(email.id, { userId: user.id });
    await api.Users.block(user.id);
    expect((await api.Users.show(user.id)).state).toBe('blocked');
    await api.Users.unblock(user.id);
    await api.Users.deactivate(user.id);
    expect((await api.Users.show(user.id)).state).toBe('deactivated');
    await api.Users.activate(user.id);
    const activities = await api.Users.allActivities({ from: '2000-01-01' });
    expect(activities.map((activity) => activity.username)).toContain('root');
    await api.Users.remove(user.id);
    await eventually(async () => (await status(`/users/${user.id}`)) === 404, 'the user deletion');
  });
});
