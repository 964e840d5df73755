// python-gitlab 3.12 (Debian) and @gitbeaker/rest drive the repository API (files, branches,
// commits, tree, compare, merge base, contributors, archives, tags) against a started `kiln serve`,
// and a real `git` clones what they committed, changes it, pushes, and the clients read it back: on
// SQLite, and on a fresh PostgreSQL database when KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function git(work: string, args: string[], cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=Git User', '-c', 'user.email=git@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const PYTHON = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
created = p.files.create({"file_path": "docs/read me.md", "branch": "main", "content": "hello\\n", "commit_message": "Add the readme", "author_name": "Py Author", "author_email": "py@example.com"})
out["file_create"] = [created.file_path, created.branch]
f = p.files.get(file_path="docs/read me.md", ref="main")
out["file_get"] = [f.file_name, f.decode().decode(), f.encoding, f.size, f.last_commit_id == f.commit_id]
f.content = "hello again\\n"
f.save(branch="main", commit_message="Update the readme")
out["raw"] = p.files.raw(file_path="docs/read me.md", ref="main").decode()
out["blame"] = [[b["lines"], b["commit"]["title"]] for b in p.files.blame(file_path="docs/read me.md", ref="main")]
try:
    p.files.create({"file_path": "docs/read me.md", "branch": "main", "content": "x", "commit_message": "again"})
except gitlab.exceptions.GitlabCreateError as err:
    out["file_exists"] = [err.response_code, err.error_message]
p.branches.create({"branch": "feature/x.y", "ref": "main"})
b = p.branches.get("feature/x.y")
out["branch"] = [b.name, b.protected, b.default, b.merged, b.can_push, b.commit["title"]]
made = p.commits.create({"branch": "feature/x.y", "commit_message": "Two files", "actions": [
    {"action": "create", "file_path": "a.txt", "content": "a\\n"},
    {"action": "create", "file_path": "bin/run", "content": "IyEvYmluL3NoCg==", "encoding": "base64"},
    {"action": "chmod", "file_path": "bin/run", "execute_filemode": True},
    {"action": "move", "file_path": "docs/moved.md", "previous_path": "docs/read me.md"},
]})
out["commit"] = [made.title, made.stats, made.parent_ids == [b.commit["id"]]]
out["commits"] = [c.title for c in p.commits.list(ref_name="feature/x.y", all=True)]
# python-gitlab takes a \`path\` keyword as the URL to list: the filters go in query_parameters.
out["commits_path"] = [c.title for c in p.commits.list(query_parameters={"ref_name": "feature/x.y", "path": "a.txt"})]
c = p.commits.get(made.id)
out["diff"] = sorted([d["new_path"], d["renamed_file"]] for d in c.diff())
out["refs"] = c.refs()
out["tree"] = [[t["path"], t["mode"]] for t in p.repository_tree(ref="feature/x.y", recursive=True, all=True)]
cmp = p.repository_compare("main", "feature/x.y")
out["compare"] = [[x["title"] for x in cmp["commits"]], sorted(d["new_path"] for d in cmp["diffs"])]
out["merge_base"] = p.repository_merge_base(["main", "feature/x.y"])["title"]
out["contributors"] = sorted([x["email"], x["commits"]] for x in p.repository_contributors())
out["archive_zip"] = p.repository_archive(sha="feature/x.y", format="zip")[:2].decode()
out["archive_tgz"] = list(p.repository_archive()[:2])
t = p.tags.create({"tag_name": "v1.0", "ref": "feature/x.y", "message": "Release 1.0"})
out["tag"] = [t.name, t.message, t.commit["id"] == made.id]
out["tags"] = [x.name for x in p.tags.list()]
p.tags.delete("v1.0")
out["tags_after"] = [x.name for x in p.tags.list()]
rel = p.releases.create({"tag_name": "v2.0", "ref": "main", "name": "Two", "description": "Notes",
    "assets": {"links": [{"name": "bin", "url": "https://example.com/bin", "link_type": "package"}]}})
out["release"] = [rel.tag_name, rel.name, rel.assets["count"], rel.upcoming_release]
rel = p.releases.get("v2.0")
rel.links.create({"name": "docs", "url": "https://example.com/docs", "direct_asset_path": "/docs"})
out["release_links"] = sorted([l.name, l.link_type] for l in rel.links.list())
rel.name = "Two, again"
rel.save()
out["release_saved"] = p.releases.get("v2.0").name
p.releases.delete("v2.0")
out["releases_after"] = [x.tag_name for x in p.releases.list()]
p.files.delete(file_path="a.txt", commit_message="Remove a.txt", branch="feature/x.y")
out["after_delete"] = [t["path"] for t in p.repository_tree(ref="feature/x.y")]
p.branches.delete("feature/x.y")
try:
    p.branches.get("feature/x.y")
except gitlab.exceptions.GitlabGetError as err:
    out["branch_gone"] = err.response_code
try:
    p.branches.delete("main")
except gitlab.exceptions.GitlabDeleteError as err:
    out["default_refused"] = [err.response_code, err.error_message]
print(json.dumps(out))
`;

function suite(label: string, env: () => Record<string, string> | undefined) {
  describe(label, () => {
    let kiln: KilnProcess;
    let project: { id: number; path_with_namespace: string };
    let work: string;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'kiln-client-repository-'));
      kiln = await startKilnProcess({ env: env() });
      const group = await apiCall(kiln, 'POST', '/groups', { name: 'acme', path: 'acme' });
      project = await apiCall(kiln, 'POST', '/projects', { name: 'tool', path: 'tool', namespace_id: group.id });
    });
    afterAll(async () => {
      await kiln?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it('python-gitlab 3.12: project.files, branches, commits, tags and the repository calls', async () => {
      const { stdout } = await runPython(PYTHON, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
      const out = JSON.parse(stdout);
      expect(out.file_create).toEqual(['docs/read me.md', 'main']);
      expect(out.file_get).toEqual(['read me.md', 'hello\n', 'base64', 6, true]);
      expect(out.raw).toBe('hello again\n');
      expect(out.blame).toEqual([[['hello again'], 'Update the readme']]);
      expect(out.file_exists).toEqual([400, 'A file with this name already exists']);
      expect(out.branch).toEqual(['feature/x.y', false, false, false, true, 'Update the readme']);
      expect(out.commit).toEqual(['Two files', { additions: 2, deletions: 0, total: 2 }, true]);
      expect(out.commits).toEqual(['Two files', 'Update the readme', 'Add the readme']);
      expect(out.commits_path).toEqual(['Two files']);
      expect(out.release).toEqual(['v2.0', 'Two', 5, false]);
      expect(out.release_links).toEqual([['bin', 'package'], ['docs', 'other']]);
      expect(out.release_saved).toBe('Two, again');
      expect(out.releases_after).toEqual([]);
      expect(out.diff).toEqual([['a.txt', false], ['bin/run', false], ['docs/moved.md', true]]);
      expect(out.refs).toEqual([{ type: 'branch', name: 'feature/x.y' }]);
      expect(out.tree).toEqual([['a.txt', '100644'], ['bin', '040000'], ['bin/run', '100755'], ['docs', '040000'], ['docs/moved.md', '100644']]);
      expect(out.compare).toEqual([['Two files'], ['a.txt', 'bin/run', 'docs/moved.md']]);
      expect(out.merge_base).toBe('Update the readme');
      expect(out.contributors).toEqual([['admin@example.com', 1], ['py@example.com', 1]].sort());
      expect(out.archive_zip).toBe('PK');
      expect(out.archive_tgz).toEqual([0x1f, 0x8b]);
      expect(out.tag).toEqual(['v1.0', 'Release 1.0', true]);
      expect(out.tags).toEqual(['v1.0']);
      expect(out.tags_after).toEqual([]);
      expect(out.after_delete).toEqual(['bin', 'docs']);
      expect(out.branch_gone).toBe(404);
      expect(out.default_refused).toEqual([400, 'The default branch of a project cannot be deleted.']);
    });

    it('@gitbeaker/rest: RepositoryFiles, Branches, Commits, Repositories and Tags', async () => {
      const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
      const id = project.id;
      await api.RepositoryFiles.create(id, 'gb/note.txt', 'main', 'one\n', 'Add a note', { authorName: 'Gb Author', authorEmail: 'gb@example.com' });
      const note = await api.RepositoryFiles.show(id, 'gb/note.txt', 'main');
      expect([note.file_name, Buffer.from(note.content, 'base64').toString(), note.execute_filemode]).toEqual(['note.txt', 'one\n', false]);
      await api.RepositoryFiles.edit(id, 'gb/note.txt', 'main', 'two\n', 'Edit the note', { lastCommitId: note.last_commit_id });
      expect(await api.RepositoryFiles.showRaw(id, 'gb/note.txt', 'main')).toBe('two\n');
      const blame = await api.RepositoryFiles.allFileBlames(id, 'gb/note.txt', 'main');
      expect(blame.map((range) => range.lines)).toEqual([['two']]);
      await expect(api.RepositoryFiles.edit(id, 'gb/note.txt', 'main', 'three\n', 'Stale', { lastCommitId: note.last_commit_id })).rejects.toMatchObject({
        cause: { description: 'You are attempting to update a file that has changed since you started editing it.' },
      });

      const branch = await api.Branches.create(id, 'gb/topic', 'main');
      expect([branch.name, branch.default]).toEqual(['gb/topic', false]);
      expect((await api.Branches.all(id, { search: '^gb' })).map((item) => item.name)).toEqual(['gb/topic']);
      expect((await api.Branches.show(id, 'gb/topic')).commit.title).toBe('Edit the note');
      const made = await api.Commits.create(id, 'gb/topic', 'Commit from gitbeaker', [
        { action: 'create', filePath: 'gb/new.txt', content: 'new\n' },
        { action: 'update', filePath: 'gb/note.txt', content: 'three\n' },
      ]);
      expect(made.stats).toEqual({ additions: 2, deletions: 1, total: 3 });
      expect((await api.Commits.show(id, made.id)).title).toBe('Commit from gitbeaker');
      expect((await api.Commits.showDiff(id, made.id)).map((diff) => diff.new_path)).toEqual(['gb/new.txt', 'gb/note.txt']);
      expect((await api.Commits.all(id, { refName: 'gb/topic', perPage: 2, maxPages: 1 })).map((item) => item.title)).toEqual(['Commit from gitbeaker', 'Edit the note']);
      const tree = await api.Repositories.allRepositoryTrees(id, { ref: 'gb/topic', path: 'gb' });
      expect(tree.map((entry) => entry.name)).toEqual(['new.txt', 'note.txt']);
      const compare = await api.Repositories.compare(id, 'main', 'gb/topic');
      expect(compare.commits?.map((item) => item.title)).toEqual(['Commit from gitbeaker']);
      const base = await api.Repositories.mergeBase(id, ['main', 'gb/topic']);
      expect(base.title).toBe('Edit the note');
      const contributors = await api.Repositories.allContributors(id);
      expect(contributors.map((item) => item.email)).toContain('gb@example.com');
      const archive = (await api.Repositories.showArchive(id, { fileType: 'tar.bz2', sha: 'gb/topic' })) as unknown as Blob;
      expect(Buffer.from(await archive.arrayBuffer()).subarray(0, 3).toString()).toBe('BZh');
      const tag = await api.Tags.create(id, 'gb-1', 'gb/topic', { message: 'Tagged by gitbeaker' });
      expect([tag.name, tag.message, tag.commit.id]).toEqual(['gb-1', 'Tagged by gitbeaker', made.id]);
      expect((await api.Tags.show(id, 'gb-1')).name).toBe('gb-1');
      await api.Tags.remove(id, 'gb-1');
      await api.RepositoryFiles.remove(id, 'gb/new.txt', 'gb/topic', 'Remove the new file');
      await api.Branches.remove(id, 'gb/topic');
      expect((await api.Branches.all(id)).map((item) => item.name)).toEqual(['main']);
    });

    it('a real git clones what the clients committed, pushes a change, and the clients read it back', async () => {
      const remote = `${kiln.url.replace('http://', `http://root:${kiln.rootToken}@`)}/${project.path_with_namespace}.git`;
      const dir = join(work, 'clone');
      const clone = await git(work, ['clone', '-q', remote, dir]);
      expect(clone.code, clone.stderr).toBe(0);
      expect(readFileSync(join(dir, 'gb/note.txt'), 'utf8')).toBe('two\n');
      expect(readFileSync(join(dir, 'docs/read me.md'), 'utf8')).toBe('hello again\n');
      writeFileSync(join(dir, 'gb/note.txt'), 'pushed by git\n');
      writeFileSync(join(dir, 'pushed.txt'), 'new\n');
      expect((await git(work, ['add', '.'], dir)).code).toBe(0);
      expect((await git(work, ['commit', '-q', '-m', 'Change from git'], dir)).code).toBe(0);
      const pushed = (await git(work, ['rev-parse', 'HEAD'], dir)).stdout.trim();
      const push = await git(work, ['push', '-q', 'origin', 'HEAD:main'], dir);
      expect(push.code, push.stderr).toBe(0);

      const { stdout } = await runPython(
        `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
f = p.files.get(file_path="gb/note.txt", ref="main")
print(json.dumps({"note": f.decode().decode(), "last": f.last_commit_id, "top": p.commits.list(per_page=1)[0].title,
  "tree": [t["path"] for t in p.repository_tree(ref="main")]}))
`,
        { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace },
      );
      expect(JSON.parse(stdout)).toEqual({ note: 'pushed by git\n', last: pushed, top: 'Change from git', tree: ['docs', 'gb', 'pushed.txt'] });
      const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
      const compare = await api.Repositories.compare(project.id, `${pushed}~1`, 'main');
      expect(compare.commits?.map((item) => item.id)).toEqual([pushed]);
      expect(compare.diffs?.map((diff) => diff.new_path)).toEqual(['gb/note.txt', 'pushed.txt']);
      const afterApi = await api.Commits.create(project.id, 'main', 'After the push', [{ action: 'create', filePath: 'after.txt', content: 'x' }]);
      expect(afterApi.parent_ids).toEqual([pushed]);
      const pull = await git(work, ['pull', '-q', '--ff-only', 'origin', 'main'], dir);
      expect(pull.code, pull.stderr).toBe(0);
      expect((await git(work, ['log', '-1', '--format=%H %s'], dir)).stdout.trim()).toBe(`${afterApi.id} After the push`);
    });
  });
}

suite('on SQLite', () => undefined);

onFreshPostgres('repository', (databaseUrl) => {
  suite('python-gitlab, gitbeaker and git', () => ({ KILN_DATABASE_URL: databaseUrl() }));
});
