// The repository pages' answers kept by commit (issue 35): after each push to the default branch the
// job computes the last commit of every entry of the directories the push changed (from the previous
// head's answer when it can), carries the others over, and blames the changed files. After pushes
// with edits, renames, deletes, a change and its revert, a merge and a force push, every kept answer
// is checked against a fresh walk and against `git log -1 -- <path>` per entry, every kept blame
// against `git blame`, and the tree page against `git log -1` again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { lastCommitsForTree, lastCommitsSince, linearSince } from '../../src/repositories/repository-api/last-commits.js';
import { blameRanges, decodeBlame, decodeTree, encodeBlame, encodeTree } from '../../src/repositories/repository-api/page-caches.js';
import { directoriesOf, PAGE_CACHES_JOB } from '../../src/repositories/page-caches-job.js';

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
async function push(force = false) {
  await ok(['push', '-q', ...(force ? ['--force'] : []), remote, 'main'], repo);
  await kiln.worker.drain();
  const unfinished = await kiln.deps.db.selectFrom('jobs').select(['state', 'last_error']).where('kind', '=', PAGE_CACHES_JOB).where('state', '!=', 'done').execute();
  expect(unfinished).toEqual([]);
}

async function keptRows(commit: string, kind: 'tree' | 'blame') {
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

async function treePage(path: string): Promise<Map<string, string>> {
  const response = await kiln.request('GET', `/owner/cached/-/tree/main${path ? `/${path}` : ''}`);
  expect(response.statusCode).toBe(200);
  return new Map([...response.body.matchAll(/data-entry="([^"]*)" data-last-commit="([0-9a-f]{40})"/g)].map((match) => [match[1], match[2]]));
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

  it('a push to another branch keeps nothing for it', async () => {
    await ok(['checkout', '-q', '-b', 'side'], repo);
    await write('side.txt', 'side\n', 'Add side');
    const side = await head('side');
    await ok(['push', '-q', remote, 'side'], repo);
    await kiln.worker.drain();
    expect(await keptRows(side, 'tree')).toEqual([]);
    await ok(['checkout', '-q', 'main'], repo);
  });
});
