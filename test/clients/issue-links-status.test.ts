// python-gitlab 3.12 against a started Kiln (issue 38): issue links (create, list, delete), an issue's
// state and milestone events, the current user's status and another's, and banning a user, as
// python-gitlab's own functional tests call them. On SQLite, and on a fresh PostgreSQL database as
// well when KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function suite(environment: () => Record<string, string> | undefined): void {
  let kiln: KilnProcess;
  let alice: { id: number; token: string };

  beforeAll(async () => {
    kiln = await startKilnProcess({ env: environment() });
    const created = await apiCall(kiln, 'POST', '/users', { username: 'alice', name: 'Alice', email: 'alice@example.com', password: 'alice-password-1' });
    alice = { id: created.id, token: (await apiCall(kiln, 'POST', `/users/${created.id}/personal_access_tokens`, { name: 'clients', scopes: ['api'] })).token };
    await apiCall(kiln, 'POST', '/projects', { name: 'app', path: 'app' }, alice.token);
  });
  afterAll(() => kiln?.stop());

  it('links issues: create returns both issues, list shows issue_link_id, delete removes it', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("alice/app")
issue = p.issues.create({"title": "Source"})
other = p.issues.create({"title": "Target"})
out = {}
source, target = issue.links.create({"target_project_id": p.id, "target_issue_iid": other.iid, "link_type": "blocks"})
out["created"] = [source.iid == issue.iid, target.iid == other.iid]
links = issue.links.list()
out["listed"] = [[l.title, l.link_type] for l in links]
out["other_side"] = [l.link_type for l in other.links.list()]
try:
    issue.links.create({"target_project_id": p.id, "target_issue_iid": other.iid})
except gitlab.exceptions.GitlabCreateError as e:
    out["again"] = [e.response_code, e.error_message]
issue.links.delete(links[0].issue_link_id)
out["after_delete"] = len(issue.links.list())
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.created).toEqual([true, true]);
    expect(out.listed).toEqual([['Target', 'blocks']]);
    expect(out.other_side).toEqual(['is_blocked_by']);
    expect(out.again).toEqual([409, 'Issue(s) already assigned']);
    expect(out.after_delete).toBe(0);
  });

  it("lists and gets an issue's state and milestone events", async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
p = gl.projects.get("alice/app")
milestone = p.milestones.create({"title": "v1"})
issue = p.issues.create({"title": "Evented"})
issue.milestone_id = milestone.id
issue.save()
issue.state_event = "close"
issue.save()
out = {}
states = issue.resourcestateevents.list()
out["states"] = [e.state for e in states]
out["state_one"] = issue.resourcestateevents.get(states[0].id).resource_type
milestones = issue.resourcemilestoneevents.list()
out["milestones"] = [[e.action, e.milestone["title"]] for e in milestones]
out["milestone_one"] = issue.resourcemilestoneevents.get(milestones[0].id).state
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.states).toEqual(['closed']);
    expect(out.state_one).toBe('Issue');
    expect(out.milestones).toEqual([['add', 'v1']]);
    expect(out.milestone_one).toBe('opened');
  });

  it("sets the current user's status, reads another's, and bans and unbans a user", async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${alice.token}")
gl.auth()
out = {}
status = gl.user.status.get()
status.emoji = "coffee"
status.message = "Brewing"
status.save()
mine = gl.user.status.get()
out["mine"] = [mine.emoji, mine.message]
root = gitlab.Gitlab("${kiln.url}", private_token="${kiln.rootToken}")
theirs = root.users.get(${alice.id}).status.get()
out["theirs"] = [theirs.emoji, theirs.message]
bob = root.users.create({"username": "bob", "name": "Bob", "email": "bob@example.com", "password": "bob-password-1"})
bob.ban()
out["banned"] = root.users.get(bob.id).state
bob.unban()
out["unbanned"] = root.users.get(bob.id).state
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.mine).toEqual(['coffee', 'Brewing']);
    expect(out.theirs).toEqual(['coffee', 'Brewing']);
    expect(out.banned).toBe('banned');
    expect(out.unbanned).toBe('active');
  });
}

describe('on SQLite', () => suite(() => undefined));

onFreshPostgres('issue-links-status', (databaseUrl) => {
  suite(() => ({ KILN_DATABASE_URL: databaseUrl() }));
});
