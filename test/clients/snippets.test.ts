// python-gitlab 3.12 (Debian) against a started `kiln serve`, as its functional suite drives snippets
// (docs/clients.md): personal snippets — create, list, get, save after editing, content (raw),
// user_agent_detail, delete — and project snippets the same way, with snippets_enabled set first;
// and an update whose files carry no action, as clients that send the files as they read them do;
// a snippet of two files cloned with git from its http_url_to_repo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;

beforeAll(async () => {
  kiln = await startKilnProcess();
});
afterAll(async () => kiln?.stop());

const PYTHON_SNIPPETS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
out = {}
out["empty"] = len(gl.snippets.list(get_all=True))
snippet = gl.snippets.create({"title": "snippet1", "file_name": "snippet1.py", "content": "import gitlab"})
snippet = gl.snippets.get(snippet.id)
snippet.title = "updated_title"
snippet.save()
snippet = gl.snippets.get(snippet.id)
out["title"] = snippet.title
out["content"] = snippet.content().decode()
out["agent"] = snippet.user_agent_detail()["user_agent"]
snippet.description = "described"
snippet.visibility = "public"
snippet.file_name = "renamed.py"
snippet.content = "import os"
snippet.save()
again = gl.snippets.get(snippet.id)
out["saved"] = [again.description, again.visibility, again.file_name, again.content().decode()]
out["public"] = [s.id for s in gl.snippets.public()]
out["listed"] = [s.title for s in gl.snippets.list(get_all=True)]
out["no_action"] = gl.http_put("/snippets/%d" % snippet.id, post_data={"files": [{"file_path": "renamed.py", "content": "updated"}, {"file_path": "second.py", "content": "added"}]})["files"]
out["no_action_raw"] = gl.snippets.get(snippet.id).content().decode()
snippet.delete()
out["deleted"] = snippet.id not in [s.id for s in gl.snippets.list(get_all=True)]
try:
    gl.snippets.create({"title": "", "file_name": "a.py", "content": "x"})
except gitlab.exceptions.GitlabCreateError as err:
    out["bad"] = [err.response_code, err.error_message]

project = gl.projects.create({"name": "snippets-client"})
project.snippets_enabled = True
project.save()
psnippet = project.snippets.create({"title": "snip1", "file_name": "foo.py", "content": "initial content", "visibility": "private"})
out["p_agent"] = psnippet.user_agent_detail()["user_agent"]
out["p_count"] = len(project.snippets.list())
psnippet.file_name = "bar.py"
psnippet.save()
psnippet = project.snippets.get(psnippet.id)
out["p_content"] = psnippet.content().decode()
out["p_file_name"] = psnippet.file_name
out["p_listed"] = psnippet in project.snippets.list()
psnippet.title = "snip2"
psnippet.description = "project one"
psnippet.save()
out["p_saved"] = [project.snippets.get(psnippet.id).title, project.snippets.get(psnippet.id).description]
psnippet.delete()
out["p_deleted"] = len(project.snippets.list())
project.snippets_enabled = False
project.save()
try:
    project.snippets.list()
except gitlab.exceptions.GitlabListError as err:
    out["p_disabled"] = err.response_code
print(json.dumps(out))
`;

describe('python-gitlab 3.12 snippets', () => {
  it('drives personal and project snippets through create, list, get, save, content and delete', async () => {
    const { stdout } = await runPython(PYTHON_SNIPPETS, { URL: kiln.url, TOKEN: kiln.rootToken });
    const out = JSON.parse(stdout);
    expect(out.empty).toBe(0);
    expect(out.title).toBe('updated_title');
    expect(out.content).toBe('import gitlab');
    expect(out.agent).toMatch(/^python-gitlab\//);
    expect(out.saved).toEqual(['described', 'public', 'renamed.py', 'import os']);
    expect(out.public).toHaveLength(1);
    expect(out.listed).toEqual(['updated_title']);
    expect(out.no_action.map((file: { path: string }) => file.path)).toEqual(['renamed.py', 'second.py']);
    expect(out.no_action_raw).toBe('updated');
    expect(out.deleted).toBe(true);
    expect(out.bad).toEqual([400, 'title is empty']);
    expect(out.p_agent).toMatch(/^python-gitlab\//);
    expect(out.p_count).toBe(1);
    expect(out.p_content).toBe('initial content');
    expect(out.p_file_name).toBe('bar.py');
    expect(out.p_listed).toBe(true);
    expect(out.p_saved).toEqual(['snip2', 'project one']);
    expect(out.p_deleted).toBe(0);
    expect(out.p_disabled).toBe(403);
  });
});

describe('git', () => {
  it('clones a snippet of two files from its http_url_to_repo', async () => {
    const snippet = await apiCall(kiln, 'POST', '/snippets', { title: 'Two', visibility: 'private', files: [{ file_path: 'a.py', content: 'print(1)\n' }, { file_path: 'lib/b.txt', content: 'b\n' }] });
    const dir = mkdtempSync(join(tmpdir(), 'kiln-snippet-clone-'));
    try {
      const remote = (snippet.http_url_to_repo as string).replace('http://', `http://root:${kiln.rootToken}@`);
      execFileSync('git', ['clone', '-q', remote, join(dir, 'clone')], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' } });
      expect(readFileSync(join(dir, 'clone', 'a.py'), 'utf8')).toBe('print(1)\n');
      expect(readFileSync(join(dir, 'clone', 'lib', 'b.txt'), 'utf8')).toBe('b\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
