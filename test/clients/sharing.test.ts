// python-gitlab 3.12 against a started Kiln (issue 38): sharing a group with a group and a project
// with a group, as its functional test_groups does (group.share / group.unshare and the group's
// shared_with_groups) and project.share / project.unshare, with a member of the invited group
// reading what was shared through their own token. On SQLite, and on a fresh PostgreSQL database as
// well when KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function suite(environment: () => Record<string, string> | undefined): void {
  let kiln: KilnProcess;

  beforeAll(async () => {
    kiln = await startKilnProcess({ env: environment() });
  });
  afterAll(() => kiln?.stop());

  it('shares and unshares groups and projects', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${kiln.rootToken}")
out = {}
group1 = gl.groups.create({"name": "group1", "path": "group1", "visibility": "private"})
group2 = gl.groups.create({"name": "group2", "path": "group2", "visibility": "private"})
project = gl.projects.create({"name": "app", "namespace_id": group1.id, "visibility": "private"})
solo = gl.projects.create({"name": "solo", "visibility": "private"})
user = gl.users.create({"email": "dev@example.com", "username": "dev", "name": "Dev", "password": "Secret-pass-123", "skip_confirmation": True})
group2.members.create({"user_id": user.id, "access_level": gitlab.const.MAINTAINER_ACCESS})
token = user.impersonationtokens.create({"name": "t", "scopes": ["api"]}).token
dev = gitlab.Gitlab("${kiln.url}", private_token=token)
def visible():
    return sorted(p.path for p in dev.projects.list(membership=True))
out["before"] = visible()
group1.share(group2.id, gitlab.const.DEVELOPER_ACCESS)
group1 = gl.groups.get(group1.id)
out["shared_with_groups"] = [[g["group_id"] == group2.id, g["group_full_path"], g["group_access_level"]] for g in group1.shared_with_groups]
out["shared"] = visible()
out["dev_level"] = dev.projects.get(project.id).permissions["project_access"]["access_level"]
group1.unshare(group2.id)
out["after_unshare"] = [len(gl.groups.get(group1.id).shared_with_groups), visible()]
solo.share(group2.id, gitlab.const.REPORTER_ACCESS, expires_at="2999-01-01")
out["project_shared"] = [[g["group_id"] == group2.id, g["group_access_level"], g["expires_at"]] for g in gl.projects.get(solo.id).shared_with_groups]
out["project_visible"] = visible()
solo.unshare(group2.id)
out["project_after"] = [gl.projects.get(solo.id).shared_with_groups, visible()]
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.before).toEqual([]);
    expect(out.shared_with_groups).toEqual([[true, 'group2', 30]]);
    expect(out.shared).toEqual(['app']);
    expect(out.dev_level).toBe(30);
    expect(out.after_unshare).toEqual([0, []]);
    expect(out.project_shared).toEqual([[true, 20, '2999-01-01']]);
    expect(out.project_visible).toEqual(['solo']);
    expect(out.project_after).toEqual([[], []]);
  });
}

describe('on SQLite', () => suite(() => undefined));

onFreshPostgres('sharing', (databaseUrl) => {
  suite(() => ({ KILN_DATABASE_URL: databaseUrl() }));
});
