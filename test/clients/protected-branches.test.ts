// python-gitlab 3.12 (Debian) drives project.protectedbranches against a started `kiln serve`, and
// the rules it makes hold against a real `git push` to that server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let project: { id: number; path_with_namespace: string };
let developer: { username: string; token: string };
let work: string;

function git(args: string[], cwd = work): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    }, (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }));
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-client-protected-'));
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'clients', path: 'clients' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'guarded', path: 'guarded', namespace_id: group.id });
  const user = await apiCall(kiln, 'POST', '/users', { username: 'dev', name: 'Dev', email: 'dev@example.com', password: 'dev-password-1' });
  developer = { username: 'dev', token: (await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'git', scopes: ['api'] })).token };
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: user.id, access_level: 30 });
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(work, { recursive: true, force: true });
});

const PYTHON_PROTECTED_BRANCHES = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"], lazy=True)
out = {}
main = p.protectedbranches.create({"name": "main", "push_access_level": gitlab.const.MAINTAINER_ACCESS, "merge_access_level": gitlab.const.DEVELOPER_ACCESS})
# project_id is python-gitlab's own parent attribute, not part of the answer.
out["created"] = {k: v for k, v in main.attributes.items() if k != "project_id"}
p.protectedbranches.create({"name": "release/*", "push_access_level": gitlab.const.NO_ACCESS, "allow_force_push": True})
out["list"] = [[b.name, b.push_access_levels[0]["access_level"], b.merge_access_levels[0]["access_level"], b.allow_force_push] for b in p.protectedbranches.list()]
wildcard = p.protectedbranches.get("release/*")
out["get_wildcard"] = [wildcard.name, wildcard.push_access_levels[0]["access_level_description"]]
try:
    p.protectedbranches.create({"name": "main"})
except gitlab.exceptions.GitlabCreateError as err:
    out["duplicate"] = [err.response_code, err.error_message]
out["patched"] = gl.http_request("patch", "/projects/%s/protected_branches/main" % p.id, post_data={"allow_force_push": True}).json()["allow_force_push"]
wildcard.delete()
p.protectedbranches.delete("main")
try:
    p.protectedbranches.get("release/*")
except gitlab.exceptions.GitlabGetError as err:
    out["get_after_delete"] = err.response_code
out["after"] = [b.name for b in p.protectedbranches.list()]
p.protectedbranches.create({"name": "main"})
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('drives project.protectedbranches through create, list, get, delete (and a PATCH by http_request)', async () => {
    const { stdout } = await runPython(PYTHON_PROTECTED_BRANCHES, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    const out = JSON.parse(stdout);
    expect(out.created).toEqual({
      id: expect.any(Number),
      name: 'main',
      push_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null, deploy_key_id: null }],
      merge_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: 'Developers + Maintainers', user_id: null, group_id: null }],
      allow_force_push: false,
      code_owner_approval_required: false,
    });
    expect(out.list).toEqual([['main', 40, 30, false], ['release/*', 0, 40, true]]);
    expect(out.get_wildcard).toEqual(['release/*', 'No one']);
    expect(out.duplicate).toEqual([409, "Protected branch 'main' already exists"]);
    expect(out.patched).toBe(true);
    expect(out.get_after_delete).toBe(404);
    expect(out.after).toEqual([]);
  });

  it('the rule it made refuses a developer\'s git push with GitLab\'s sentence', async () => {
    const dir = join(work, 'checkout');
    const remote = (user: string, token: string) => `${kiln.url.replace('http://', `http://${user}:${token}@`)}/${project.path_with_namespace}.git`;
    await git(['init', '-q', dir]);
    writeFileSync(join(dir, 'README.md'), 'hello\n');
    await git(['add', '.'], dir);
    await git(['commit', '-q', '-m', 'first'], dir);
    // The group's owner creates the branch; the developer's next commit is refused.
    const first = await git(['push', remote('root', kiln.rootToken), 'HEAD:main'], dir);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(dir, 'README.md'), 'hello again\n');
    await git(['commit', '-q', '-am', 'second'], dir);
    const refused = await git(['push', remote(developer.username, developer.token), 'HEAD:main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('remote: You are not allowed to push code to protected branches on this project.');
    const topic = await git(['push', remote(developer.username, developer.token), 'HEAD:topic'], dir);
    expect(topic.code, topic.stderr).toBe(0);
  });
});
