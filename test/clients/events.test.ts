// python-gitlab 3.12 and @gitbeaker/rest against a started Kiln: the events listings (following every
// page through Link) and notification settings at the three levels, as users call them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let alice: { id: number; token: string; readUserToken: string };
let group: any;
let project: any;

beforeAll(async () => {
  kiln = await startKilnProcess();
  const user = await apiCall(kiln, 'POST', '/users', { username: 'alice', name: 'Alice', email: 'alice@example.com', password: 'alice-password-1' });
  const token = await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'clients', scopes: ['api'] });
  const readUser = await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'read_user', scopes: ['read_user'] });
  alice = { id: user.id, token: token.token, readUserToken: readUser.token };
  group = await apiCall(kiln, 'POST', '/groups', { name: 'team', path: 'team' }, alice.token);
  project = await apiCall(kiln, 'POST', '/projects', { name: 'app', path: 'app', namespace_id: group.id }, alice.token); // 1 event
  for (let i = 1; i <= 24; i += 1) await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: `Issue ${i}` }, alice.token); // 24 events
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues/1/notes`, { body: 'First comment' }, alice.token); // 1 event
});
afterAll(() => kiln?.stop());

describe('python-gitlab 3.12', () => {
  it('lists events of the user, another user, and a project through every page, and reads the note object', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
out = {}
out["all"] = len(gl.events.list(get_all=True))
out["filtered"] = [e.action_name for e in gl.events.list(action="commented", target_type="note", after="2020-01-01", before="2100-01-01", sort="asc", scope="all", get_all=True)]
out["user"] = len(gl.users.get("alice", lazy=True).events.list(get_all=True))
page2 = gl.users.get(${alice.id}, lazy=True).events.list(page=2, per_page=20)
out["user_page2"] = [e.action_name for e in page2]
p = gl.projects.get("team/app", lazy=True)
events = p.events.list(get_all=True)
out["project"] = len(events)
out["notes"] = [e.note["body"] for e in events if e.target_type == "Note"]
out["first"] = events[-1].action_name
reader = gitlab.Gitlab("${kiln.url}", private_token="${alice.readUserToken}")
out["read_user"] = len(reader.events.list(get_all=True))
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.all).toBe(26);
    expect(out.filtered).toEqual(['commented on']);
    expect(out.user).toBe(26);
    expect(out.user_page2).toEqual(['opened', 'opened', 'opened', 'opened', 'opened', 'created']);
    expect(out.project).toBe(26);
    expect(out.notes).toEqual(['First comment']);
    expect(out.first).toBe('created');
    expect(out.read_user).toBe(26);
  });

  it('reads and saves global, group and project notification settings', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
out = {}
s = gl.notificationsettings.get()
out["global_default"] = [s.level, s.notification_email]
s.level = "watch"
s.save()
out["global_saved"] = gl.notificationsettings.get().level
gl.notificationsettings.update(new_data={"level": "custom", "new_note": True})
out["global_custom"] = gl.notificationsettings.get().attributes
g = gl.groups.get(${group.id}, lazy=True)
out["group_default"] = g.notificationsettings.get().level
gs = g.notificationsettings.get()
gs.level = "mention"
gs.save()
out["group_saved"] = g.notificationsettings.get().level
g.notificationsettings.update(new_data={"level": "custom", "close_issue": True})
out["group_custom"] = g.notificationsettings.get().attributes["events"]["close_issue"]
p = gl.projects.get("team/app", lazy=True)
out["project_default"] = p.notificationsettings.get().level
p.notificationsettings.update(new_data={"level": "disabled"})
out["project_saved"] = p.notificationsettings.get().level
try:
    gl.notificationsettings.update(new_data={"level": "loud"})
    out["bad_level"] = None
except gitlab.exceptions.GitlabUpdateError as e:
    out["bad_level"] = [e.response_code, e.error_message]
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.global_default).toEqual(['participating', 'alice@example.com']);
    expect(out.global_saved).toBe('watch');
    expect(out.global_custom.level).toBe('custom');
    expect(out.global_custom.notification_email).toBe('alice@example.com');
    expect(out.global_custom.events).toMatchObject({ new_note: true, new_issue: null, moved_project: true, merge_when_pipeline_succeeds: false, new_epic: null });
    expect(out.group_default).toBe('global');
    expect(out.group_saved).toBe('mention');
    expect(out.group_custom).toBe(true);
    expect(out.project_default).toBe('global');
    expect(out.project_saved).toBe('disabled');
    expect(out.bad_level).toEqual([400, "'loud' is not a valid level"]);
  });
});

describe('@gitbeaker/rest', () => {
  it('lists events of the user, another user and a project through every page', async () => {
    const api = new Gitlab({ host: kiln.url, token: alice.token });
    const all = await api.Events.all({ maxPages: 10 });
    expect(all).toHaveLength(26);
    const expanded = await api.Events.all({ userId: 'alice', showExpanded: true, perPage: 20, page: 1 } as any);
    expect((expanded as any).paginationInfo).toMatchObject({ total: 26, totalPages: 2, next: 2, current: 1 });
    const byUser = await api.Events.all({ userId: 'alice' } as any);
    expect(byUser).toHaveLength(26);
    const notes = await api.Events.all({ projectId: 'team/app', targetType: 'note' } as any);
    expect(notes.map((e: any) => e.note.body)).toEqual(['First comment']);
    const filtered = await api.Events.all({ action: 'created', targetType: 'issue', before: '2100-01-01', after: '2020-01-01', sort: 'asc', scope: 'all' } as any);
    expect(filtered.map((e: any) => e.target_title).slice(0, 2)).toEqual(['Issue 1', 'Issue 2']);
    expect(filtered).toHaveLength(24);
  });

  it('shows and edits global, group and project notification settings', async () => {
    const api = new Gitlab({ host: kiln.url, token: alice.token });
    const edited = await api.NotificationSettings.edit({ level: 'watch', notificationEmail: 'alice@example.com' } as any);
    expect(edited).toEqual({ level: 'watch', notification_email: 'alice@example.com' });
    expect(await api.NotificationSettings.show()).toEqual(edited);
    const groupSetting = await api.NotificationSettings.edit({ groupId: group.id, level: 'custom', newNote: true, mergeWhenPipelineSucceeds: true } as any);
    expect((groupSetting as any).events).toMatchObject({ new_note: true, merge_when_pipeline_succeeds: true });
    expect(await api.NotificationSettings.show({ groupId: group.id })).toEqual(groupSetting);
    await api.NotificationSettings.edit({ projectId: project.id, level: 'participating' } as any);
    expect(await api.NotificationSettings.show({ projectId: 'team/app' })).toEqual({ level: 'participating' });
    await expect(api.NotificationSettings.edit({ projectId: project.id, level: 'nope' } as any)).rejects.toMatchObject({ cause: { response: { status: 400 } } });
  });
});
