// The repository pages' answers kept by commit (issue 35): after each push to the default branch the
// job computes the last commit of every entry of the directories the push changed (from the previous
// head's answer when it can), carries the others over, and blames the changed files. After pushes
// with edits, renames, deletes, a change and its revert, a merge and a force push, every kept answer
// is checked against a fresh walk and against `git log -1 -- <path>` per entry, every kept blame
// against `git blame`, and the tree page against `git log -1` again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { lastCommitsForTree, lastCommitsSince, linearSince } from '../../src/repositories/repository-api/last-commits.js';
import { blameRanges, decodeBlame, decodeTree, encodeBlame, encodeTree } from '../../src/repositories/repository-api/page-caches.js';
import { directoriesOf, MAX_DIRECTORIES, MAX_PAGE_CACHES_JOBS_PER_PUSH, PAGE_CACHES_JOB } from '../../src/repositories/page-caches-job.js';
import { highlightText } from '../../src/platform/web/highlight/highlighter.js';
import type { StartedProcess } from '../helpers/process-starts.js';

const started = vi.hoisted(() => [] as StartedProcess[]);
vi.mock('node:child_process', async (original) => (await import('../helpers/process-starts.js')).recordingChildProcess(await original(), started));
/** The git commands (the first argument that is a command's name) started since `from`, the long-lived cat-file reader left out. */
const gitCommandsSince = (from: number) =>
  started
    .slice(from)
    .filter((start) => start.file === 'git')
    .map((start) => start.args.find((arg) => /^[a-z][a-z-]*$/.test(arg)) ?? '')
    .filter((command) => command !== 'cat-file');

let kiln: TestKiln;
let owner: TestUser;
let work: string;
let repo: string;
let remote: string;
let projectId: number;
const { ok } = gitCommands(() => work);

async function write(path: string, content: string, message: string) {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), content);
  await ok(['add', '--', path], repo);
  await ok(['commit', '-q', '-m', message], repo);
}

/** The clone's git directory: Kiln's git helpers read a repository by its git directory. */
const gitDir = () => join(repo, '.git');
const head = async (ref = 'main') => (await ok(['rev-parse', ref], repo)).trim();

/** Push main (forced when asked) and run the jobs the push enqueued; none of the page-cache jobs may fail. */
async function push(force = false, ref = 'main') {
  await ok(['push', '-q', ...(force ? ['--force'] : []), remote, ref], repo);
  await kiln.worker.drain();
  const unfinished = await kiln.deps.db.selectFrom('jobs').select(['state', 'last_error']).where('kind', '=', PAGE_CACHES_JOB).where('state', '!=', 'done').execute();
  expect(unfinished).toEqual([]);
}

async function keptRows(commit: string, kind: 'tree' | 'blame' | 'highlight') {
  return kiln.deps.db.selectFrom('repository_page_caches').select(['path', 'data']).where('project_id', '=', projectId).where('commit_sha', '=', commit).where('kind', '=', kind).execute();
}

/** Every kept answer at `commit` equals a fresh walk, `git log -1` per entry, and `git blame`. */
async function expectKeptAnswersRight(commit: string) {
  for (const row of await keptRows(commit, 'tree')) {
    const kept = decodeTree(row.data);
    const listing = await ok(['ls-tree', '-z', '--name-only', row.path === '' ? commit : `${commit}:${row.path}`], repo);
    const names = listing.split('\0').filter((name) => name !== '');
    const fresh = await lastCommitsForTree(gitDir(), commit, row.path, names);
    expect(Object.fromEntries(kept.byEntry), `kept last commits of "${row.path}"`).toEqual(Object.fromEntries(fresh.byEntry));
    expect(kept.latest).toBe(fresh.latest);
    for (const name of names) {
      const path = row.path === '' ? name : `${row.path}/${name}`;
      expect(kept.byEntry.get(name), path).toBe((await ok(['log', '-1', '--format=%H', commit, '--', path], repo)).trim());
    }
  }
  for (const row of await keptRows(commit, 'blame')) {
    expect(decodeBlame(row.data), `kept blame of ${row.path}`).toEqual(blameRanges(await ok(['blame', '--porcelain', commit, '--', row.path], repo)));
  }
}

/** The last commit of every entry the tree page shows: in the page when kept, else in the follow-up it asks for (which keeps it). */
async function treePage(path: string): Promise<Map<string, string>> {
  const response = await kiln.request('GET', `/owner/cached/-/tree/main${path ? `/${path}` : ''}`);
  expect(response.statusCode).toBe(200);
  const followUp = /hx-get="([^"]*\?last_commits=[0-9a-f]{40})" hx-trigger="load"/.exec(response.body)?.[1];
  const body = followUp ? (await kiln.request('GET', followUp)).body : response.body;
  return new Map([...body.matchAll(/data-entry="([^"]*)" data-last-commit="([0-9a-f]{40})"/g)].map((match) => [match[1], match[2]]));
}

async function expectTreePageRight(path: string) {
  const shown = await treePage(path);
  expect(shown.size).toBeGreaterThan(0);
  for (const [entry, commit] of shown) expect(commit, entry).toBe((await ok(['log', '-1', '--format=%H', 'main', '--', entry], repo)).trim());
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-page-caches-'));
  kiln = await testKiln();
  const base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  projectId = Number((await kiln.createProject(owner, 'cached', { visibility: 'public' })).id);
  remote = `${base.replace('http://', `http://owner:${owner.token}@`)}/owner/cached.git`;
  repo = join(work, 'repo');
  await ok(['init', '-q', repo]);
  await write('README.md', '# Cached\n', 'Add README');
  await write('a/x.txt', 'x\n', 'Add x');
  await write('a/b/y.txt', 'y\n', 'Add y');
  await write('c/z.txt', 'z\n', 'Add z');
  await write('e/keep.txt', 'keep\n', 'Add keep');
  await write('e/f/deep.txt', 'deep\n', 'Add deep');
  await write('a/x.txt', 'x2\n', 'Change x');
}, 120_000);
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the answers kept by commit', { timeout: 240_000 }, () => {
  it('encodes and decodes a tree and a blame as they were', () => {
    const tree = { latest: 'c'.repeat(40), byEntry: new Map([['a', 'a'.repeat(40)], ['b', 'b'.repeat(40)], ['c d', 'a'.repeat(40)]]) };
    expect(decodeTree(encodeTree(tree))).toEqual(tree);
    const blame = [{ commitId: 'a'.repeat(40), lines: 3 }, { commitId: 'b'.repeat(40), lines: 1 }, { commitId: 'a'.repeat(40), lines: 2 }];
    expect(decodeBlame(encodeBlame(blame))).toEqual(blame);
    expect(directoriesOf(['a/b/c.txt', 'README.md', 'd/e.txt'])).toEqual(['', 'a', 'd', 'a/b']);
  });

  it('a first push keeps the root; a tree page keeps what it walked', async () => {
    await push();
    const first = await head();
    expect((await keptRows(first, 'tree')).map((row) => row.path)).toEqual(['']);
    for (const path of ['', 'a', 'a/b', 'c', 'e', 'e/f']) await expectTreePageRight(path);
    expect((await keptRows(first, 'tree')).map((row) => row.path).sort()).toEqual(['', 'a', 'a/b', 'c', 'e', 'e/f']);
    await expectKeptAnswersRight(first);
  });

  it('after edits, a rename, a delete and an addition: the changed directories walked again, the others carried', async () => {
    const before = await head();
    await write('a/b/y.txt', 'y2\n', 'Change y');
    mkdirSync(join(repo, 'd'));
    await ok(['mv', 'c/z.txt', 'd/z.txt'], repo);
    await ok(['commit', '-q', '-m', 'Move z to d'], repo);
    await ok(['rm', '-q', 'a/x.txt'], repo);
    await ok(['commit', '-q', '-m', 'Delete x'], repo);
    await write('a/new.txt', 'new\n', 'Add new');
    const after = await head();
    expect(await linearSince(gitDir(), before, after)).toBe(true);
    await push();
    const kept = (await keptRows(after, 'tree')).map((row) => row.path).sort();
    // Changed: the root, a, a/b, d (c is gone); carried: e and e/f, which no pushed commit touched.
    expect(kept).toEqual(['', 'a', 'a/b', 'd', 'e', 'e/f']);
    expect((await keptRows(after, 'blame')).map((row) => row.path).sort()).toEqual(['a/b/y.txt', 'a/new.txt', 'd/z.txt']);
    await expectKeptAnswersRight(after);
    for (const path of ['', 'a', 'a/b', 'd', 'e', 'e/f']) await expectTreePageRight(path);
  });

  it('a change and its revert in one push: the directory is walked again, not carried', async () => {
    const before = await head();
    await write('e/f/deep.txt', 'deeper\n', 'Change deep');
    await write('e/f/deep.txt', 'deep\n', 'Revert deep');
    const after = await head();
    expect(await ok(['diff', '--name-only', before, after], repo)).toBe('');
    await push();
    const kept = decodeTree((await keptRows(after, 'tree')).find((row) => row.path === 'e/f')!.data);
    expect(kept.byEntry.get('deep.txt')).toBe(after);
    await expectKeptAnswersRight(after);
  });

  it('walking only the new commits agrees with a whole walk', async () => {
    const before = await head();
    await write('e/keep.txt', 'kept\n', 'Change keep');
    await write('g/h.txt', 'h\n', 'Add g');
    const after = await head();
    for (const directory of ['', 'a', 'e', 'e/f']) {
      const names = (await ok(['ls-tree', '-z', '--name-only', directory === '' ? after : `${after}:${directory}`], repo)).split('\0').filter(Boolean);
      const beforeNames = (await ok(['ls-tree', '-z', '--name-only', directory === '' ? before : `${before}:${directory}`], repo)).split('\0').filter(Boolean);
      const previous = await lastCommitsForTree(gitDir(), before, directory, beforeNames);
      const since = await lastCommitsSince(gitDir(), previous, before, after, directory, names);
      const whole = await lastCommitsForTree(gitDir(), after, directory, names);
      expect(since && Object.fromEntries(since.byEntry), directory).toEqual(Object.fromEntries(whole.byEntry));
      expect(since?.latest).toBe(whole.latest);
    }
    await push();
    await expectKeptAnswersRight(after);
  });

  it('a merge and then a force push: walked afresh, still right', async () => {
    await ok(['checkout', '-q', '-b', 'topic'], repo);
    await write('a/topic.txt', 'topic\n', 'Add topic');
    await write('e/keep.txt', 'topic keep\n', 'Change keep on topic');
    await ok(['checkout', '-q', 'main'], repo);
    await write('a/b/y.txt', 'y3\n', 'Change y on main');
    await ok(['merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic'], repo);
    const merged = await head();
    expect(await linearSince(gitDir(), (await ok(['rev-parse', 'main^1'], repo)).trim(), merged)).toBe(false);
    await push();
    expect((await keptRows(merged, 'tree')).map((row) => row.path)).toEqual(expect.arrayContaining(['', 'a', 'a/b', 'e']));
    await expectKeptAnswersRight(merged);
    for (const path of ['', 'a', 'e']) await expectTreePageRight(path);

    await ok(['reset', '-q', '--hard', 'HEAD~1'], repo);
    await write('a/b/y.txt', 'rewritten\n', 'Rewrite y');
    const rewritten = await head();
    // The default branch is protected against force pushes once pushed (as GitLab); the owner lifts it.
    expect((await kiln.api('DELETE', `/projects/${projectId}/protected_branches/main`, { token: owner.token })).status).toBe(204);
    await push(true);
    expect((await keptRows(rewritten, 'tree')).map((row) => row.path)).toEqual(expect.arrayContaining(['', 'a', 'a/b']));
    await expectKeptAnswersRight(rewritten);
    for (const path of ['', 'a', 'a/b', 'e']) await expectTreePageRight(path);
  });

  it('the blame page reads the kept blame and shows every line with its commit', async () => {
    const commit = await head();
    expect((await keptRows(commit, 'blame')).map((row) => row.path)).toContain('a/b/y.txt');
    const response = await kiln.request('GET', '/owner/cached/-/blame/main/a/b/y.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`/owner/cached/-/commit/${commit}`);
    expect(response.body).toContain('id="L1"');
  });

  it("a new branch: its root and changed directories from main's answers, the rest carried", async () => {
    const main = await head();
    await ok(['checkout', '-q', '-b', 'side'], repo);
    await write('a/side.txt', 'side\n', 'Add side');
    const side = await head('side');
    await push(false, 'side');
    const kept = (await keptRows(side, 'tree')).map((row) => row.path).sort();
    expect(kept).toEqual(expect.arrayContaining(['', 'a']));
    // What main kept for the folders the branch's commit did not touch is carried to it.
    const carried = (await keptRows(main, 'tree')).map((row) => row.path).filter((path) => path !== '' && path !== 'a');
    expect(carried.length).toBeGreaterThan(0);
    expect(kept).toEqual(expect.arrayContaining(carried));
    expect((await keptRows(side, 'blame')).map((row) => row.path)).toEqual(['a/side.txt']);
    await expectKeptAnswersRight(side);
    await ok(['checkout', '-q', 'main'], repo);
  });

  it('a tag, lightweight or annotated, on an older commit: its root kept', async () => {
    const older = (await ok(['rev-parse', 'main~3'], repo)).trim();
    expect(await keptRows(older, 'tree')).toEqual([]);
    await ok(['tag', '-a', '-m', 'Old one', 'v0.1', older], repo);
    await push(false, 'v0.1');
    expect((await keptRows(older, 'tree')).map((row) => row.path)).toEqual(['']);
    await expectKeptAnswersRight(older);
    const oldest = (await ok(['rev-list', '--max-parents=0', 'main'], repo)).trim();
    await ok(['tag', 'v0.0', oldest], repo);
    await push(false, 'v0.0');
    expect((await keptRows(oldest, 'tree')).map((row) => row.path)).toEqual(['']);
    await expectKeptAnswersRight(oldest);
  });

  const queuedRefs = async () => (await kiln.deps.db.selectFrom('jobs').select('payload').where('kind', '=', PAGE_CACHES_JOB).orderBy('id').execute()).map((row) => (JSON.parse(row.payload) as { ref: string }).ref);

  it(`a push of many tags queues ${MAX_PAGE_CACHES_JOBS_PER_PUSH - 1} jobs, not one per tag (the last is kept for the default branch)`, async () => {
    const before = (await queuedRefs()).length;
    const commits = (await ok(['rev-list', 'main'], repo)).trim().split('\n');
    for (let index = 0; index < 30; index += 1) await ok(['tag', `old-${String(index).padStart(2, '0')}`, commits[index % commits.length]], repo);
    await ok(['push', '-q', remote, '--tags'], repo);
    // The first tags by name have their job; the others' pages are computed when first viewed.
    expect((await queuedRefs()).slice(before)).toEqual(Array.from({ length: MAX_PAGE_CACHES_JOBS_PER_PUSH - 1 }, (_, index) => `refs/tags/old-${String(index).padStart(2, '0')}`));
    await kiln.worker.drain();
  });

  it(`a mirror-style push of more than ${MAX_PAGE_CACHES_JOBS_PER_PUSH} branches that sort before the default branch still queues the default branch's job`, async () => {
    const before = (await queuedRefs()).length;
    await write('mirror.txt', 'mirrored\n', 'A commit every pushed branch holds');
    // Six branches whose names sort before `main`, and main itself, in one push.
    const branches = ['a-1', 'a-2', 'a-3', 'a-4', 'b-1', 'b-2'];
    for (const branch of branches) await ok(['branch', '-f', branch, 'main'], repo);
    await ok(['push', '-q', remote, 'main', ...branches], repo);
    const queued = (await queuedRefs()).slice(before);
    expect(queued).toHaveLength(MAX_PAGE_CACHES_JOBS_PER_PUSH);
    expect(queued).toContain('refs/heads/main');
    expect(queued.filter((ref) => ref !== 'refs/heads/main')).toEqual(['refs/heads/a-1', 'refs/heads/a-2', 'refs/heads/a-3']);
    await kiln.worker.drain();
  });

  it(`a push changing more than ${MAX_DIRECTORIES} folders: the shallowest walked, the rest on their first view, the others carried`, async () => {
    const before = await head();
    for (let folder = 0; folder < MAX_DIRECTORIES + 10; folder += 1) {
      mkdirSync(join(repo, 'many', `f${String(folder).padStart(2, '0')}`), { recursive: true });
      writeFileSync(join(repo, 'many', `f${String(folder).padStart(2, '0')}`, 'file.txt'), `${folder}\n`);
    }
    await ok(['add', '--', 'many'], repo);
    await ok(['commit', '-q', '-m', 'Add many folders'], repo);
    const after = await head();
    await push();
    const kept = new Set((await keptRows(after, 'tree')).map((row) => row.path));
    // The root, many and the first 48 folders by name (shallowest first, then by name) walked.
    expect(kept.has('')).toBe(true);
    expect(kept.has('many')).toBe(true);
    const walked = [...kept].filter((path) => path.startsWith('many/'));
    expect(walked.length).toBe(MAX_DIRECTORIES - 2);
    // Folders the push did not touch are carried from the previous head, the bound notwithstanding.
    const untouched = (await keptRows(before, 'tree')).map((row) => row.path).filter((path) => path !== '');
    expect(untouched.length).toBeGreaterThan(0);
    for (const path of untouched) expect(kept.has(path), path).toBe(true);
    // A folder past the bound: walked on its first view, right, and kept from then on.
    const last = `many/f${MAX_DIRECTORIES + 9}`;
    expect(kept.has(last)).toBe(false);
    await expectTreePageRight(last);
    expect((await keptRows(after, 'tree')).map((row) => row.path)).toContain(last);
    await expectKeptAnswersRight(after);
  });
});

describe('the blob page', { timeout: 240_000 }, () => {
  const lines = Array.from({ length: 250 }, (_, index) => `export const value${index} = ${index}; // <b>not markup</b>`);

  it('after a push: the file highlighted and kept by its blob, the page read from it and its folder with one git process', async () => {
    mkdirSync(join(repo, 'notes'));
    writeFileSync(join(repo, 'notes', 'long'), `${lines.join('\n')}\n`);
    await ok(['add', '--', 'notes'], repo);
    await write('src/long.ts', `${lines.join('\n')}\n`, 'Add long');
    const commit = await head();
    await push();
    const blob = (await ok(['rev-parse', `${commit}:src/long.ts`], repo)).trim();
    const rows = await kiln.deps.db.selectFrom('repository_page_caches').select(['path', 'data']).where('project_id', '=', projectId).where('commit_sha', '=', blob).where('kind', '=', 'highlight').execute();
    expect(rows.map((row) => row.path)).toEqual(['src/long.ts']);
    // Both files have the same text, hence the same blob: the row is the TypeScript file's by its path.
    const highlighted = await highlightText({ path: 'src/long.ts', text: `${lines.join('\n')}\n` });
    expect(JSON.parse(rows[0].data)).toEqual(highlighted!.slice(0, lines.length));
    const from = started.length;
    const response = await kiln.request('GET', '/owner/cached/-/blob/main/src/long.ts');
    expect(response.statusCode).toBe(200);
    // Only the refs are read by a process: the file through the long-lived cat-file, its last commit from the folder's kept answer.
    expect(gitCommandsSince(from)).toEqual(['for-each-ref']);
    expect(response.body).toContain(`/owner/cached/-/commit/${commit}`);
    expect(response.body).toContain('id="L250"');
    expect(response.body).toContain('&lt;b&gt;not markup&lt;/b&gt;');
    expect(response.body).toContain('hljs-keyword');
  });

  it('a folder nothing kept: its last commit by one rev-list, two git processes in all', async () => {
    const commit = (await ok(['log', '--diff-filter=A', '--format=%H', 'main', '--', 'a/b/y.txt'], repo)).trim();
    expect((await keptRows(commit, 'tree')).map((row) => row.path)).not.toContain('a/b');
    const from = started.length;
    const response = await kiln.request('GET', `/owner/cached/-/blob/${commit}/a/b/y.txt`);
    expect(response.statusCode).toBe(200);
    expect(gitCommandsSince(from).sort()).toEqual(['for-each-ref', 'rev-list']);
    expect(response.body).toContain(`/owner/cached/-/commit/${(await ok(['log', '-1', '--format=%H', commit, '--', 'a/b/y.txt'], repo)).trim()}`);
  });

  it('a highlighting kept in the database (by another node) is what the page, its chunks and the blame page show, not highlighted again', async () => {
    const commit = await head();
    const blob = (await ok(['rev-parse', `${commit}:notes/long`], repo)).trim();
    // A file without an extension: nothing highlights it here, so nothing but the row can colour it.
    expect((await keptRows(blob, 'highlight')).map((row) => row.path)).toEqual(['src/long.ts']);
    const markup = lines.map((_, index) => `<span class="kept-elsewhere">${index}</span>`);
    await kiln.deps.db.insertInto('repository_page_caches').values({ project_id: projectId, commit_sha: blob, kind: 'highlight', path: 'notes/long', data: JSON.stringify(markup), created_at: Date.now() }).execute();
    const response = await kiln.request('GET', '/owner/cached/-/blob/main/notes/long');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<span class="kept-elsewhere">0</span>');
    expect(response.body).not.toContain('<span class="kept-elsewhere">100</span>');
    const chunk = await kiln.request('GET', `/owner/cached/-/blob/${commit}/notes/long?chunk=2`);
    expect(chunk.statusCode).toBe(200);
    expect(chunk.body).toContain('<span class="kept-elsewhere">249</span>');
    const blame = await kiln.request('GET', '/owner/cached/-/blame/main/notes/long');
    expect(blame.statusCode).toBe(200);
    expect(blame.body).toContain('<span class="kept-elsewhere">249</span>');
  });
});
