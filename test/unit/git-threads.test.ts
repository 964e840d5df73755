// Git off the event loop (issue 33's last item): the long-lived `git cat-file --batch` readers
// (src/repositories/cat-file.ts) and the git threads that start every git process
// (src/repositories/git-threads.ts), against real repositories.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedProcess } from '../helpers/process-starts.js';
import { CatFilePool, type BatchAnswer } from '../../src/repositories/cat-file.js';
import { closeReaders, gitBytes, gitCall, runCommand, spawnGit } from '../../src/repositories/git.js';
import { readObjects } from '../../src/repositories/repository-api/object-reader.js';
import { readYamlAt } from '../../src/ci/pipelines/read-yaml.js';
import { MAX_YAML_BYTES } from '../../src/ci/config/parse-config.js';

const started = vi.hoisted(() => [] as StartedProcess[]);
vi.mock('node:child_process', async (original) => (await import('../helpers/process-starts.js')).recordingChildProcess(await original(), started));

let work: string;
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x' };
const sh = (repo: string, args: string[], input?: string | Buffer) => execFileSync('git', ['--git-dir', repo, ...args], { env: ENV, input }).toString().trim();

/** A bare repository whose `main` has `files` (one commit), and the commit's id. */
function repository(name: string, files: Record<string, string | Buffer>): { repo: string; commit: string } {
  const repo = join(work, `${name}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', repo], { env: ENV });
  return { repo, commit: commitOn(repo, files) };
}

function commitOn(repo: string, files: Record<string, string | Buffer>, parent?: string): string {
  const entries = Object.entries(files).map(([path, content]) => `100644 blob ${sh(repo, ['hash-object', '-w', '--stdin'], content)}\t${path}`);
  const tree = sh(repo, ['mktree'], `${entries.join('\n')}\n`);
  const commit = sh(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', 'change']);
  sh(repo, ['update-ref', 'refs/heads/main', commit]);
  return commit;
}

const content = (answer: BatchAnswer | undefined) => (answer && 'content' in answer ? answer.content : null);

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kiln-git-threads-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a repository’s cat-file reader', () => {
  it('answers objects in order: binary content exact, missing and unsafe-looking names null, one process for every batch', async () => {
    const binary = Buffer.from([0, 10, 13, 255, 10, 0]);
    const { repo, commit } = repository('reads', { 'a.txt': 'hello\n', 'bin.dat': binary });
    const pool = new CatFilePool();
    const [head, text, data, missing, spaced, tree] = await pool.read(repo, ['main^{commit}', 'main:a.txt', 'main:bin.dat', 'main:nope', 'no such name', 'main^{tree}'], 1024);
    expect(head && head.id).toBe(commit);
    expect(content(text)?.toString()).toBe('hello\n');
    expect(content(data)).toEqual(binary);
    expect([missing, spaced]).toEqual([null, null]);
    expect(tree && tree.type).toBe('tree');
    // Concurrent batches share the process and each gets its own answers.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => pool.read(repo, index % 2 ? ['main:a.txt'] : ['main:bin.dat', 'main:nope'], 1024)));
    answers.forEach((batch, index) => expect(content(batch[0])).toEqual(index % 2 ? Buffer.from('hello\n') : binary));
    expect(pool.started).toBe(1);
    pool.closeAll();
  });

  it('sees a ref moved and objects written after it started', async () => {
    const { repo, commit } = repository('moves', { 'a.txt': 'one\n' });
    const pool = new CatFilePool();
    expect((await pool.read(repo, ['main^{commit}'], 1024))[0]?.id).toBe(commit);
    const next = commitOn(repo, { 'a.txt': 'two\n' }, commit);
    const [head, blob] = await pool.read(repo, ['main^{commit}', 'main:a.txt'], 1024);
    expect(head?.id).toBe(next);
    expect(content(blob)?.toString()).toBe('two\n');
    expect(pool.started).toBe(1);
    pool.closeAll();
  });

  it('reads an object over the limit through without keeping it, and stays in step for the next', async () => {
    const big = 'x'.repeat(300_000);
    const { repo } = repository('big', { 'big.txt': big, 'small.txt': 'small\n' });
    const pool = new CatFilePool();
    const [large, small] = await pool.read(repo, ['main:big.txt', 'main:small.txt'], 100_000);
    expect(large).toMatchObject({ type: 'blob', size: 300_000, tooLarge: true });
    expect(content(small)?.toString()).toBe('small\n');
    expect(content((await pool.read(repo, ['main:big.txt'], 1_000_000))[0])?.length).toBe(300_000);
    pool.closeAll();
  });

  it('keeps at most its cap of processes (least recently used closed), starts a closed one again, and closes those under a path', async () => {
    const repos = ['lru-a', 'lru-b', 'nested/lru-c'].map((name) => repository(name.replace('/', '-'), { 'f.txt': name }).repo);
    const pool = new CatFilePool(undefined, 2);
    for (const repo of repos) await pool.read(repo, ['main:f.txt'], 1024);
    expect(pool.size).toBe(2);
    expect(content((await pool.read(repos[0], ['main:f.txt'], 1024))[0])?.toString()).toBe('lru-a');
    expect(pool.started).toBe(4);
    pool.close(work);
    expect(pool.size).toBe(0);
    expect(content((await pool.read(repos[1], ['main:f.txt'], 1024))[0])?.toString()).toBe('lru-b');
    pool.closeAll();
  });

  it('fails a read of something that is not a repository, without hanging', async () => {
    const pool = new CatFilePool();
    await expect(pool.read(join(work, 'missing.git'), ['main'], 1024)).rejects.toThrow();
  });
});

describe('git on git threads', () => {
  it('starts no process on the event loop: each start is published on kiln:git-start instead', async () => {
    const { repo, commit } = repository('threads', { 'a.txt': 'hello\n', 'b.txt': 'bee\n' });
    const before = started.length;
    const published: string[] = [];
    const note = (message: unknown) => published.push((message as StartedProcess).args.slice(2, 4).join(' '));
    subscribe('kiln:git-start', note);
    expect((await gitBytes(repo, ['rev-parse', 'main'])).toString().trim()).toBe(commit);
    expect((await gitCall(repo, ['merge-base', '--is-ancestor', commit, commit])).code).toBe(0);
    expect((await gitCall(repo, ['cat-file', '-e', 'f'.repeat(40)])).code).not.toBe(0);
    await expect(runCommand('git', ['--git-dir', repo, 'rev-parse', 'nope'])).rejects.toThrow(/nope/);
    expect((await gitBytes(repo, ['hash-object', '--stdin'], { input: 'hello\n' })).toString().trim()).toBe(sh(repo, ['rev-parse', 'main:a.txt']));
    const objects = await readObjects(repo, ['main:a.txt', 'main:b.txt', 'a\nb']);
    expect(objects.map((object) => object?.content.toString() ?? null)).toEqual(['hello\n', 'bee\n', null]);
    await readObjects(repo, ['main:a.txt']);
    unsubscribe('kiln:git-start', note);
    // One reader for both reads; every start published, and nothing more seen by the mock of node:child_process.
    expect(published.filter((args) => args.startsWith('cat-file --batch'))).toHaveLength(1);
    expect(published).toContain('rev-parse main');
    expect(published).toHaveLength(6);
    expect(started.length - before).toBe(published.length);
    closeReaders(repo);
  });

  it('reads a pipeline’s YAML through the reader: the text, null for a folder or a missing file, too big unread, no git started', async () => {
    const big = Buffer.alloc(MAX_YAML_BYTES + 1, 'a');
    const { repo } = repository('yaml', { README: 'ci\n' });
    const blob = (text: string | Buffer) => sh(repo, ['hash-object', '-w', '--stdin'], text);
    const folder = sh(repo, ['mktree'], `100644 blob ${blob('x: 1\n')}\tincluded.yml\n`);
    const tree = sh(repo, ['mktree'], `100644 blob ${blob('job:\n  script: true\n')}\t.gitlab-ci.yml\n040000 tree ${folder}\tci\n100644 blob ${blob(big)}\thuge.yml\n`);
    const commit = sh(repo, ['commit-tree', tree, '-m', 'ci']);
    await readYamlAt(repo, commit, '.gitlab-ci.yml');
    const published: unknown[] = [];
    const note = (message: unknown) => published.push(message);
    subscribe('kiln:git-start', note);
    expect(await readYamlAt(repo, commit, '.gitlab-ci.yml')).toBe('job:\n  script: true\n');
    expect(await readYamlAt(repo, commit, 'ci/included.yml')).toBe('x: 1\n');
    expect(await readYamlAt(repo, commit, 'ci')).toBeNull();
    expect(await readYamlAt(repo, commit, 'missing.yml')).toBeNull();
    expect(await readYamlAt(repo, 'f'.repeat(40), '.gitlab-ci.yml')).toBeNull();
    expect(await readYamlAt(repo, commit, 'huge.yml')).toEqual({ tooBig: true });
    unsubscribe('kiln:git-start', note);
    expect(published).toEqual([]);
    closeReaders(repo);
  });

  it('starts git from a helper process, not from this one: its parent is not this process', async () => {
    // A fork from a large process copies its page tables and faults on its memory afterwards.
    const parent = Number((await runCommand('sh', ['-c', 'echo $PPID'])).toString().trim());
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
  });

  it('streams a long output a chunk at a time, and a killed stream ends', async () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join('\n');
    const { repo } = repository('stream', { 'long.txt': lines });
    const child = spawnGit(repo, ['cat-file', 'blob', 'main:long.txt']);
    const chunks: Buffer[] = [];
    for await (const chunk of child.stdout) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(lines);
    expect(child.exitCode).toBe(0);
    // Stopped after its first chunk: it ends (what it still printed is dropped), long before all of it arrived.
    const killed = spawnGit(repo, ['log', '-p', '--all', '--reverse', '--format=%H%n%B', '--', 'long.txt', 'long.txt', 'long.txt']);
    const closed = new Promise((resolve) => killed.on('close', resolve));
    let received = 0;
    killed.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
      killed.kill();
    });
    await closed;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(Buffer.byteLength(lines));
  });
});
