// python-gitlab 3.12 (Debian) against a started `kiln serve`, as its functional suite drives project
// wikis (test_wikis): create a page under a directory, list, get, save after editing content and
// title, delete; and the wiki cloned with git over HTTP shows what the API wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let work: string;

beforeAll(async () => {
  kiln = await startKilnProcess();
  work = mkdtempSync(join(tmpdir(), 'kiln-wiki-client-'));
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(work, { recursive: true, force: true });
});

const PYTHON_WIKIS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
out = {}
project = gl.projects.create({"name": "wiki-client"})
out["empty"] = len(project.wikis.list())
page = project.wikis.create({"title": "title/subtitle", "content": "test content"})
out["created"] = [page.slug, page.title, page.format, page.content]
project.wikis.create({"title": "home", "content": "See [sub](title/subtitle)"})
out["listed"] = [p.slug for p in project.wikis.list()]
got = project.wikis.get("title/subtitle")
out["got"] = [got.slug, got.content, got.encoding]
page.content = "update content"
page.title = "subtitle"
page.save()
out["saved"] = [project.wikis.get("title/subtitle").content, page.slug]
out["rendered"] = gl.http_get("/projects/%d/wikis/home" % project.id, query_data={"render_html": True})["content"]
page.delete()
out["deleted"] = [p.slug for p in project.wikis.list()]
try:
    project.wikis.get("title/subtitle")
except gitlab.exceptions.GitlabGetError as err:
    out["missing"] = [err.response_code, err.error_message]
out["path"] = project.path_with_namespace
print(json.dumps(out))
`;

function git(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: work, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' } }, (error, _stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stderr }),
    );
  });
}

describe('python-gitlab 3.12 project wikis', () => {
  it('creates, lists, gets, saves and deletes pages, and git clones what it wrote', async () => {
    const { stdout } = await runPython(PYTHON_WIKIS, { URL: kiln.url, TOKEN: kiln.rootToken });
    const out = JSON.parse(stdout);
    expect(out.empty).toBe(0);
    expect(out.created).toEqual(['title/subtitle', 'subtitle', 'markdown', 'test content']);
    expect(out.listed).toEqual(['home', 'title/subtitle']);
    expect(out.got).toEqual(['title/subtitle', 'test content', 'UTF-8']);
    expect(out.saved).toEqual(['update content', 'title/subtitle']);
    expect(out.rendered).toContain(`/${out.path}/-/wikis/title/subtitle`);
    expect(out.deleted).toEqual(['home']);
    expect(out.missing).toEqual([404, '404 Wiki Page Not Found']);

    const remote = kiln.url.replace('http://', `http://root:${encodeURIComponent(kiln.rootToken)}@`);
    const cloned = await git(['clone', '-q', `${remote}/${out.path}.wiki.git`, join(work, 'wiki')]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(readFileSync(join(work, 'wiki', 'home.md'), 'utf8')).toBe('See [sub](title/subtitle)');
  });
});
