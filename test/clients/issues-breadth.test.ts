// python-gitlab 3.12 and @gitbeaker/rest against a started Kiln: labels (project and group), milestones,
// issues with labels, assignees, milestone and due date, GET /issues, discussions with replies, label
// events, time tracking and deleting issues — create → read → update → list with filters → delete, as users call them.
// On SQLite, and on a fresh PostgreSQL database as well when KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function suite(environment: () => Record<string, string> | undefined): void {
  let kiln: KilnProcess;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let group: any;
  let project: any;

  async function user(name: string) {
    const created = await apiCall(kiln, 'POST', '/users', { username: name, name, email: `${name}@example.com`, password: `${name}-password-1` });
    const token = await apiCall(kiln, 'POST', `/users/${created.id}/personal_access_tokens`, { name: 'clients', scopes: ['api'] });
    return { id: created.id, token: token.token };
  }

  beforeAll(async () => {
    kiln = await startKilnProcess({ env: environment() });
    alice = await user('alice');
    bob = await user('bob');
    group = await apiCall(kiln, 'POST', '/groups', { name: 'team', path: 'team' }, alice.token);
    project = await apiCall(kiln, 'POST', '/projects', { name: 'app', path: 'app', namespace_id: group.id }, alice.token);
    await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }, alice.token);
  });
  afterAll(() => kiln?.stop());

  describe('python-gitlab 3.12', () => {
    it('manages project and group labels: create, get, save (rename, recolour), list, delete', async () => {
      const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("team/app")
g = gl.groups.get("team")
out = {}
label = p.labels.create({"name": "py-bug", "color": "#FF0000", "description": "Broken", "priority": 2})
out["created"] = [label.name, label.color, label.description, label.priority, label.is_project_label]
label.new_name = "py bug"
label.color = "teal"
label.save()
out["saved"] = [label.name, label.color]
out["got"] = p.labels.get("py bug").description
# Subscriptions by name (python-gitlab's SubscribableMixin posts to …/labels/<name>/subscribe).
watched = p.labels.get("py bug")
watched.subscribe()
out["subscribed"] = [watched.subscribed, p.labels.get("py bug").subscribed]
watched.unsubscribe()
out["unsubscribed"] = [watched.subscribed, p.labels.get("py bug").subscribed]
gl_label = g.labels.create({"name": "py-group", "color": "navy"})
g.labels.get("py-group").subscribe()
out["group_subscribed"] = [g.labels.get("py-group").subscribed, p.labels.get("py-group").subscribed]
out["group_listed"] = [l.name for l in g.labels.list(get_all=True)]
out["project_sees_group"] = sorted(l.name for l in p.labels.list(get_all=True))
gl_label.description = "shared"
gl_label.save()
out["group_saved"] = g.labels.get("py-group").description
p.labels.get("py bug").delete()
out["after_delete"] = [l.name for l in p.labels.list(include_ancestor_groups=False, get_all=True)]
gl_label.delete()
try:
    p.labels.create({"name": "broken", "color": "not-a-colour"})
except gitlab.exceptions.GitlabCreateError as e:
    out["bad_color"] = [e.response_code, e.error_message]
print(json.dumps(out))
`);
      const out = JSON.parse(stdout);
      expect(out.created).toEqual(['py-bug', '#FF0000', 'Broken', 2, true]);
      expect(out.saved).toEqual(['py bug', '#008080']);
      expect(out.got).toBe('Broken');
      expect(out.subscribed).toEqual([true, true]);
      expect(out.unsubscribed).toEqual([false, false]);
      expect(out.group_subscribed).toEqual([true, true]);
      expect(out.group_listed).toEqual(['py-group']);
      expect(out.project_sees_group).toEqual(['py bug', 'py-group']);
      expect(out.group_saved).toBe('shared');
      expect(out.after_delete).toEqual([]);
      expect(out.bad_color).toEqual([400, { color: ['must be a valid color code'] }]);
    });

    it('manages milestones: create, get, save (close), list with filters, its issues, delete', async () => {
      const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("team/app")
out = {}
m = p.milestones.create({"title": "py-1.0", "description": "First", "start_date": "2026-01-01", "due_date": "2030-01-01"})
out["created"] = [m.title, m.description, m.start_date, m.due_date, m.state, m.expired]
issue = p.issues.create({"title": "Planned", "milestone_id": m.id})
out["issue_milestone"] = issue.milestone["title"]
out["milestone_issues"] = [i.title for i in m.issues()]
m.state_event = "close"
m.save()
out["closed"] = p.milestones.get(m.id).state
out["active"] = [x.title for x in p.milestones.list(state="active", get_all=True)]
out["by_iid"] = [x.title for x in p.milestones.list(iids=[m.iid], get_all=True)]
gm = gl.groups.get("team").milestones.create({"title": "py-group-ms"})
out["group"] = [gm.title, gm.group_id]
m.delete()
out["after_delete"] = [x.title for x in p.milestones.list(get_all=True)]
out["issue_after"] = p.issues.get(issue.iid).milestone
print(json.dumps(out))
`);
      const out = JSON.parse(stdout);
      expect(out.created).toEqual(['py-1.0', 'First', '2026-01-01', '2030-01-01', 'active', false]);
      expect(out.issue_milestone).toBe('py-1.0');
      expect(out.milestone_issues).toEqual(['Planned']);
      expect(out.closed).toBe('closed');
      expect(out.active).toEqual([]);
      expect(out.by_iid).toEqual(['py-1.0']);
      expect(out.group).toEqual(['py-group-ms', group.id]);
      expect(out.after_delete).toEqual([]);
      expect(out.issue_after).toBeNull();
    });

    it('keeps the labels of issues.create({"labels": ["bug"]}), assigns, edits, lists with filters and deletes issues', async () => {
      const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("team/app")
out = {}
issue = p.issues.create({"title": "Labelled", "labels": ["bug", "ui"], "assignee_ids": [${bob.id}], "due_date": "2026-12-24"})
out["created"] = [issue.labels, [a["username"] for a in issue.assignees], issue.due_date]
issue.labels = ["bug", "backend"]
issue.title = "Relabelled"
issue.save()
out["saved"] = p.issues.get(issue.iid).labels
out["events"] = [[e.action, e.label["name"]] for e in issue.resourcelabelevents.list(get_all=True)]
out["filtered"] = [i.title for i in p.issues.list(labels=["backend"], get_all=True)]
out["none"] = [i.title for i in p.issues.list(labels="None", get_all=True)]
out["mine"] = [i.title for i in gl.issues.list(get_all=True)]
bob_gl = gitlab.Gitlab("${kiln.url}", private_token="${bob.token}")
out["assigned"] = [i.title for i in bob_gl.issues.list(scope="assigned_to_me", get_all=True)]
out["group"] = [i.title for i in gl.groups.get("team").issues.list(assignee_id=${bob.id}, get_all=True)]
doomed = p.issues.create({"title": "Doomed"})
doomed.delete()
try:
    p.issues.get(doomed.iid)
except gitlab.exceptions.GitlabGetError as e:
    out["deleted"] = e.response_code
try:
    bob_gl.projects.get("team/app").issues.get(issue.iid).delete()
except gitlab.exceptions.GitlabDeleteError as e:
    out["developer_delete"] = e.response_code
print(json.dumps(out))
`);
      const out = JSON.parse(stdout);
      expect(out.created).toEqual([['bug', 'ui'], ['bob'], '2026-12-24']);
      expect(out.saved).toEqual(['backend', 'bug']);
      expect(out.events).toEqual([['add', 'bug'], ['add', 'ui'], ['add', 'backend'], ['remove', 'ui']]);
      expect(out.filtered).toEqual(['Relabelled']);
      expect(out.none).toEqual(['Planned']);
      expect(out.mine).toEqual(['Relabelled', 'Planned']);
      expect(out.assigned).toEqual(['Relabelled']);
      expect(out.group).toEqual(['Relabelled']);
      expect(out.deleted).toBe(404);
      expect(out.developer_delete).toBe(403);
    });

    it('starts discussions, replies, edits and deletes notes', async () => {
      const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("team/app")
issue = p.issues.create({"title": "Talk"})
out = {}
d = issue.discussions.create({"body": "Thread start"})
out["created"] = [d.individual_note, len(d.attributes["notes"])]
reply = d.notes.create({"body": "A reply"})
out["reply"] = [reply.type, reply.body]
d = issue.discussions.get(d.id)
out["got"] = [n["body"] for n in d.attributes["notes"]]
note = d.notes.get(reply.id)
note.body = "An edited reply"
note.save()
out["edited"] = [n["body"] for n in issue.discussions.get(d.id).attributes["notes"]]
note.delete()
out["after_delete"] = len(issue.discussions.get(d.id).attributes["notes"])
c = issue.notes.create({"body": "Plain comment"})
c.body = "Plain, edited"
c.save()
out["note"] = issue.notes.get(c.id).body
out["listed"] = [x.individual_note for x in issue.discussions.list(get_all=True)]
c.delete()
out["notes_left"] = [n.body for n in issue.notes.list(get_all=True)]
print(json.dumps(out))
`);
      const out = JSON.parse(stdout);
      expect(out.created).toEqual([false, 1]);
      expect(out.reply).toEqual(['DiscussionNote', 'A reply']);
      expect(out.got).toEqual(['Thread start', 'A reply']);
      expect(out.edited).toEqual(['Thread start', 'An edited reply']);
      expect(out.after_delete).toBe(1);
      expect(out.note).toBe('Plain, edited');
      expect(out.listed).toEqual([false, true]);
      expect(out.notes_left).toEqual(['Thread start']);
    });

    it('tracks time: issue.time_estimate, add_spent_time (and a subtraction), time_stats, reset_spent_time, reset_time_estimate', async () => {
      const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("team/app")
issue = p.issues.create({"title": "Timed"})
out = {}
out["estimate"] = issue.time_estimate("1d")
out["spent"] = issue.add_spent_time("1h")
out["more"] = issue.add_spent_time("1h30m")
out["less"] = issue.add_spent_time("-30m")
# time_stats() answers the attribute a fetched issue carries; a lazy one asks GET …/time_stats.
out["stats"] = p.issues.get(issue.iid, lazy=True).time_stats()
out["entity"] = p.issues.get(issue.iid).attributes["time_stats"]
try:
    issue.add_spent_time("soon")
except gitlab.exceptions.GitlabTimeTrackingError as e:
    out["bad"] = e.response_code
out["reset"] = issue.reset_spent_time()
out["unestimated"] = issue.reset_time_estimate()
print(json.dumps(out))
`);
      const out = JSON.parse(stdout);
      expect(out.estimate).toMatchObject({ time_estimate: 8 * 3600, human_time_estimate: '1d' });
      expect(out.spent).toMatchObject({ total_time_spent: 3600, human_total_time_spent: '1h' });
      expect(out.more.human_total_time_spent).toBe('2h 30m');
      expect(out.less.human_total_time_spent).toBe('2h');
      expect(out.stats).toEqual({ time_estimate: 8 * 3600, total_time_spent: 7200, human_time_estimate: '1d', human_total_time_spent: '2h' });
      expect(out.entity).toEqual(out.stats);
      expect(out.bad).toBe(400);
      expect(out.reset).toMatchObject({ total_time_spent: 0, human_total_time_spent: null });
      expect(out.unestimated).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
    });
  });

  describe('@gitbeaker/rest', () => {
    const api = () => new Gitlab({ host: kiln.url, token: alice.token });

    it('manages labels and milestones', async () => {
      const label = await api().ProjectLabels.create(project.id, 'gb-label', '#00FF00', { description: 'from gitbeaker', priority: 1 });
      expect(label).toMatchObject({ name: 'gb-label', color: '#00FF00', description: 'from gitbeaker', priority: 1 });
      expect(await api().ProjectLabels.edit(project.id, 'gb-label', { newName: 'gb-renamed', color: 'gold' } as any)).toMatchObject({ name: 'gb-renamed', color: '#FFD700' });
      expect((await api().ProjectLabels.show(project.id, label.id as number)).name).toBe('gb-renamed');
      const groupLabel = await api().GroupLabels.create(group.id, 'gb-group', 'black');
      expect((await api().GroupLabels.all(group.id)).map((l: any) => l.name)).toContain('gb-group');
      await api().GroupLabels.remove(group.id, groupLabel.id as number);
      await api().ProjectLabels.remove(project.id, 'gb-renamed');
      expect((await api().ProjectLabels.all(project.id, { includeAncestorGroups: false })).map((l: any) => l.name)).not.toContain('gb-renamed');

      const milestone = await api().ProjectMilestones.create(project.id, 'gb-ms', { description: 'gb', dueDate: '2031-01-01', startDate: '2030-01-01' });
      expect(milestone).toMatchObject({ title: 'gb-ms', due_date: '2031-01-01', start_date: '2030-01-01', state: 'active' });
      expect(await api().ProjectMilestones.edit(project.id, milestone.id as number, { stateEvent: 'close', title: 'gb-ms2' })).toMatchObject({ state: 'closed', title: 'gb-ms2' });
      expect((await api().ProjectMilestones.all(project.id, { state: 'closed' } as any)).map((m: any) => m.title)).toContain('gb-ms2');
      const groupMilestone = await api().GroupMilestones.create(group.id, 'gb-group-ms');
      expect(groupMilestone.group_id).toBe(group.id);
      await api().GroupMilestones.remove(group.id, groupMilestone.id as number);
      await api().ProjectMilestones.remove(project.id, milestone.id as number);
    });

    it('creates issues with labels and assignees, filters GET /issues, reads label events and deletes', async () => {
      const issue = await api().Issues.create(project.id, 'Gitbeaker issue', { labels: 'gb,frontend', assigneeIds: [bob.id], dueDate: '2027-01-01' } as any);
      expect(issue).toMatchObject({ labels: ['frontend', 'gb'], due_date: '2027-01-01' });
      expect((issue.assignees as any[]).map((a) => a.username)).toEqual(['bob']);
      const edited = await api().Issues.edit(project.id, issue.iid as number, { addLabels: 'extra', removeLabels: 'frontend' } as any);
      expect(edited.labels).toEqual(['extra', 'gb']);
      const mine = await api().Issues.all({ labels: 'gb', scope: 'all' } as any);
      expect(mine.map((i: any) => i.title)).toEqual(['Gitbeaker issue']);
      const grouped = await api().Issues.all({ groupId: group.id, labels: 'extra' } as any);
      expect(grouped.map((i: any) => i.title)).toEqual(['Gitbeaker issue']);
      const events = await api().IssueLabelEvents.all(project.id, issue.iid as number);
      expect(events.map((e: any) => [e.action, e.label.name])).toEqual([['add', 'frontend'], ['add', 'gb'], ['add', 'extra'], ['remove', 'frontend']]);
      await api().Issues.remove(project.id, issue.iid as number);
      await expect(api().Issues.show(issue.iid as number, { projectId: project.id } as any)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    });

    it('starts a discussion, replies, edits and removes the reply', async () => {
      const issue = await api().Issues.create(project.id, 'Gitbeaker talk');
      const discussion = await api().IssueDiscussions.create(project.id, issue.iid as number, 'Opening');
      expect(discussion.individual_note).toBe(false);
      const reply = await api().IssueDiscussions.addNote(project.id, issue.iid as number, discussion.id as string, 'Answer');
      expect(reply).toMatchObject({ body: 'Answer', type: 'DiscussionNote' });
      const edited = await api().IssueDiscussions.editNote(project.id, issue.iid as number, discussion.id as string, reply.id as number, { body: 'Better answer' });
      expect(edited.body).toBe('Better answer');
      await api().IssueDiscussions.removeNote(project.id, issue.iid as number, discussion.id as string, reply.id as number);
      const shown = await api().IssueDiscussions.show(project.id, issue.iid as number, discussion.id as string);
      expect((shown.notes as any[]).map((n) => n.body)).toEqual(['Opening']);
      expect((await api().IssueDiscussions.all(project.id, issue.iid as number)).length).toBe(1);
      const note = await api().IssueNotes.create(project.id, issue.iid as number, 'Note');
      expect((await api().IssueNotes.edit(project.id, issue.iid as number, note.id as number, { body: 'Edited note' })).body).toBe('Edited note');
      await api().IssueNotes.remove(project.id, issue.iid as number, note.id as number);
    });
  });
}

describe('on SQLite', () => suite(() => undefined));

onFreshPostgres('issues', (databaseUrl) => {
  suite(() => ({ KILN_DATABASE_URL: databaseUrl() }));
});
