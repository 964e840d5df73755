// Real clients against a started `kiln serve`: python-gitlab 3.12 (Debian) and @gitbeaker/rest,
// used the way their users use them (docs/clients.md–2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;

beforeAll(async () => {
  kiln = await startKilnProcess();
});
afterAll(() => kiln?.stop());

const PYTHON_SCRIPT = String.raw`
import json, os, warnings
import gitlab
warnings.simplefilter("error")  # a warning (e.g. web_url under another base URL) fails the test
gl = gitlab.Gitlab(os.environ["KILN_URL"], private_token=os.environ["KILN_TOKEN"])
gl.auth()
out = {"user": gl.user.username, "web_url": gl.user.web_url}

group = gl.groups.create({"name": "Py Group", "path": "py-group"})
sub = gl.groups.create({"name": "Py Sub", "path": "py-sub", "parent_id": group.id})
out["subgroup"] = gl.groups.get("py-group/py-sub").full_path

project = gl.projects.create({"name": "py-project", "namespace_id": sub.id})
fetched = gl.projects.get("py-group/py-sub/py-project")
out["project"] = [fetched.id == project.id, fetched.path_with_namespace, fetched.web_url]

user = gl.users.create({"username": "pyuser", "name": "Py User", "email": "py@example.com", "password": "py-password-1"})
project.members.create({"user_id": user.id, "access_level": 30})
group.members.create({"user_id": user.id, "access_level": 20})
out["project_members"] = sorted([m.username, m.access_level] for m in project.members.list())
out["group_members"] = sorted([m.username, m.access_level] for m in group.members.list())
project.members.delete(user.id)
out["after_delete"] = [m.username for m in project.members.list()]

issue = project.issues.create({"title": "From python", "description": "made by python-gitlab"})
issue.notes.create({"body": "a comment"})
issue.state_event = "close"
issue.save()
again = project.issues.get(issue.iid)
out["issue"] = [again.iid, again.state, again.title, [n.body for n in again.notes.list()]]

for i in range(44):
    project.issues.create({"title": "bulk %d" % i})
listed = project.issues.list(get_all=True, per_page=10)
out["all_issues"] = [len(listed), len({i.iid for i in listed})]
page = project.issues.list(per_page=10, page=2)
out["page2"] = len(page)
out["projects_all"] = len(gl.projects.list(get_all=True, per_page=1, membership=True))
gl.projects.delete(project.id)
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('authenticates, manages groups, projects, members, issues and notes, and follows every page', async () => {
    const { stdout } = await runPython(PYTHON_SCRIPT, { KILN_URL: kiln.url, KILN_TOKEN: kiln.rootToken });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.user).toBe('root');
    expect(out.web_url).toBe(`${kiln.url}/root`);
    expect(out.subgroup).toBe('py-group/py-sub');
    expect(out.project).toEqual([true, 'py-group/py-sub/py-project', `${kiln.url}/py-group/py-sub/py-project`]);
    expect(out.project_members).toEqual([['pyuser', 30]]);
    expect(out.group_members).toEqual([['pyuser', 20], ['root', 50]]);
    expect(out.after_delete).toEqual([]);
    // Newest first, the close's system note included (GitLab's notes API lists system notes too).
    expect(out.issue).toEqual([1, 'closed', 'From python', ['closed', 'a comment']]);
    expect(out.all_issues).toEqual([45, 45]);
    expect(out.page2).toBe(10);
    expect(out.projects_all).toBe(1);
  });
});

describe('@gitbeaker/rest', () => {
  it('does the same through its resources, and .all() follows every page', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    const me = await api.Users.showCurrentUser();
    expect(me.username).toBe('root');

    const group = await api.Groups.create('JS Group', 'js-group');
    const sub = await api.Groups.create('JS Sub', 'js-sub', { parentId: group.id });
    expect((await api.Groups.show('js-group/js-sub')).id).toBe(sub.id);
    const groups = await api.Groups.all({ search: 'js-', perPage: 1 });
    expect(groups.map((g) => g.full_path).sort()).toEqual(['js-group', 'js-group/js-sub']);

    const project = await api.Projects.create({ name: 'js-project', namespaceId: sub.id });
    const shown = await api.Projects.show('js-group/js-sub/js-project');
    expect(shown.id).toBe(project.id);
    expect(shown.web_url).toBe(`${kiln.url}/js-group/js-sub/js-project`);

    const user = await api.Users.create({ username: 'jsuser', name: 'JS User', email: 'js@example.com', password: 'js-password-1' });
    await api.ProjectMembers.add(project.id, 30, { userId: user.id });
    await api.GroupMembers.add(group.id, 40, { userId: user.id });
    expect((await api.ProjectMembers.all(project.id)).map((m) => [m.username, m.access_level])).toEqual([['jsuser', 30]]);
    expect((await api.GroupMembers.all(group.id)).map((m) => m.username).sort()).toEqual(['jsuser', 'root']);
    await api.ProjectMembers.remove(project.id, user.id);
    expect(await api.ProjectMembers.all(project.id)).toEqual([]);

    const issue = await api.Issues.create(project.id, 'From gitbeaker', { description: 'made by gitbeaker' });
    await api.IssueNotes.create(project.id, issue.iid, 'a comment');
    const closed = await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close' });
    expect(closed.state).toBe('closed');
    expect((await api.IssueNotes.all(project.id, issue.iid)).map((note) => [note.body, note.system])).toEqual([['closed', true], ['a comment', false]]);
    for (let i = 0; i < 44; i += 1) await api.Issues.create(project.id, `bulk ${i}`);
    const all = await api.Issues.all({ projectId: project.id, perPage: 10 });
    expect(all).toHaveLength(45);
    expect(new Set(all.map((i) => i.iid)).size).toBe(45);
    const expanded = await api.Issues.all({ projectId: project.id, perPage: 10, page: 2, showExpanded: true });
    expect(expanded.data).toHaveLength(10);
    expect(expanded.paginationInfo).toMatchObject({ total: 45, next: 3, current: 2, previous: 1, perPage: 10, totalPages: 5 });

    await api.Projects.remove(project.id);
    await expect(api.Projects.show(project.id)).rejects.toThrow(/404 Project Not Found/);
  });
});
