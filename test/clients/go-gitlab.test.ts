// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, Go from golang-go) drives a merge request
// against a started `kiln serve`: test/clients/go/merge-requests.go is built in GOPATH mode from the
// Debian sources (no module download: GO111MODULE=off, GOPROXY=off) and run once. One server, on
// PostgreSQL when KILN_TEST_DATABASE_URL names one, else SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';

const PROGRAM = join(import.meta.dirname, 'go', 'merge-requests.go');

function run(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: '/usr/bin:/bin', ...env }, timeout: 240_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('go-gitlab 0.73', () => {
  let kiln: KilnProcess;
  let database: FreshPostgres | null;
  let work: string;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kiln-client-go-'));
    database = await freshPostgres('go_gitlab');
    kiln = await startKilnProcess({ env: database ? { KILN_DATABASE_URL: database.url } : undefined });
    const group = await apiCall(kiln, 'POST', '/groups', { name: 'gophers', path: 'gophers' });
    project = await apiCall(kiln, 'POST', '/projects', { name: 'tool', path: 'tool', namespace_id: group.id });
    await apiCall(kiln, 'PUT', `/projects/${project.id}`, { merge_requests_author_approval: true });
    await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }] });
  });

  afterAll(async () => {
    await kiln?.stop();
    await database?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('creates a branch and a merge request, lists, reads, edits, comments on a line, resolves the thread, approves and merges it', async () => {
    const goEnv = {
      HOME: work,
      GO111MODULE: 'off',
      GOPATH: `${join(work, 'gopath')}:/usr/share/gocode`,
      GOPROXY: 'off',
      GOFLAGS: '',
      // Kept between runs: a cold build of go-gitlab and its dependencies takes a minute on a loaded machine.
      GOCACHE: join(tmpdir(), 'kiln-go-build-cache'),
    };
    const binary = join(work, 'merge-requests');
    const built = await run('/usr/bin/go', ['build', '-o', binary, PROGRAM], goEnv);
    expect(built.code, built.stderr).toBe(0);
    const ran = await run(binary, [], { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    expect(ran.code, ran.stderr).toBe(0);
    const out = JSON.parse(ran.stdout);
    expect(out.created).toEqual([1, 'opened', 'go-topic', 'main', ['go'], true, 'root']);
    expect(out.listed).toEqual([1]);
    expect(out.got).toEqual(['Go change', 'from go-gitlab', true, '!1', true]);
    expect(out.changes).toEqual(['go.txt']);
    expect(out.updated).toEqual(['Go change, edited', ['go', 'reviewed']]);
    expect(out.commits).toEqual(['Add go.txt']);
    expect(out.versions).toEqual([1, true, 'collected']);
    expect(out.note).toEqual(['Looks good', 'MergeRequest']);
    expect(out.thread).toEqual(['DiffNote', 'go.txt', 1, true, false]);
    expect(out.resolved).toBe(true);
    expect(out.approved).toEqual(['root']);
    expect(out.participants).toEqual(['root']);
    expect(out.merged).toEqual(['merged', 'root', true]);
    expect(out.merge_again).toBe(405);
    expect(out.main).toEqual(['Merged by go-gitlab', 2]);
    const branches = await apiCall(kiln, 'GET', `/projects/${project.id}/repository/branches`);
    expect(branches.map((branch: { name: string }) => branch.name)).toEqual(['main']);
  }, 300_000);
});
