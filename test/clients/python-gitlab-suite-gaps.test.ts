// python-gitlab 3.12 (Debian) against a started `kiln serve`: the calls of python-gitlab's functional
// suite that Kiln failed (docs/clients.md, issue 38), made the way the suite makes them.
// On PostgreSQL when KILN_TEST_DATABASE_URL names a server (a fresh database each run), else SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKilnProcess, type KilnProcess } from './helpers/server.js';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let database: FreshPostgres | null = null;

beforeAll(async () => {
  database = await freshPostgres('suite_gaps');
  kiln = await startKilnProcess(database ? { env: { KILN_DATABASE_URL: database.url } } : undefined);
});
afterAll(async () => {
  await kiln?.stop();
  await database?.drop();
});

const PRELUDE = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
out = {}
`;

async function python(body: string) {
  const { stdout } = await runPython(`${PRELUDE}${body}\nprint(json.dumps(out))\n`, { URL: kiln.url, TOKEN: kiln.rootToken });
  return JSON.parse(stdout);
}

describe('python-gitlab 3.12', () => {
  it("sets a user's identity with user.save() and removes it with identityproviders.delete() (test_user_identities)", async () => {
    const out = await python(`
user = gl.users.create({"username": "py-ident", "name": "Py Ident", "email": "py-ident@example.com", "password": "py-ident-password-1"})
user.provider = "test_provider"
user.extern_uid = "1"
user.save()
out["after_save"] = [item["provider"] for item in user.identities]
out["found"] = [u.username for u in gl.users.list(provider="test_provider", extern_uid="1")]
user.identityproviders.delete("test_provider")
out["after_delete"] = [item["provider"] for item in gl.users.get(user.id).identities]
`);
    expect(out).toEqual({ after_save: ['test_provider'], found: ['py-ident'], after_delete: [] });
  });

  it("reads an issue's user_agent_detail as an administrator (test_create_issue)", async () => {
    const out = await python(`
project = gl.projects.create({"name": "py-issues"})
issue = project.issues.create({"title": "my issue 1"})
detail = issue.user_agent_detail()
out["detail"] = [isinstance(detail, dict), detail["user_agent"].startswith("python-gitlab/"), detail["akismet_submitted"]]
`);
    expect(out.detail).toEqual([true, true, false]);
  });

  it('lists the milestone event of an issue created with a milestone (test_issue_milestones)', async () => {
    const out = await python(`
project = gl.projects.create({"name": "py-milestones"})
milestone = project.milestones.create({"title": "v1"})
issue = project.issues.create({"title": "my issue 1", "milestone_id": milestone.id})
events = issue.resourcemilestoneevents.list()
one = issue.resourcemilestoneevents.get(events[0].id)
out["events"] = [[e.action, e.milestone["id"] == milestone.id] for e in events]
out["one"] = type(one).__name__
`);
    expect(out).toEqual({ events: [['add', true]], one: 'ProjectIssueResourceMilestoneEvent' });
  });

  it('is refused a remote import with a 400 naming the blocked URL (test_project_remote_import)', async () => {
    const out = await python(`
try:
    gl.projects.remote_import("ftp://whatever.com/url", "remote-project", "remote-project", "root")
except gitlab.exceptions.GitlabImportError as err:
    out["refused"] = [err.response_code, err.error_message]
`);
    expect(out.refused).toEqual([400, 'File url is blocked: Only allowed schemes are https']);
  });

  it('saves default_projects_limit and reads it back (test_gitlab_settings)', async () => {
    const out = await python(`
settings = gl.settings.get()
settings.default_projects_limit = 42
settings.save()
out["limit"] = gl.settings.get().default_projects_limit
settings.default_projects_limit = 100000
settings.save()
`);
    expect(out.limit).toBe(42);
  });
});
