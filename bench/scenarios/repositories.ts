// `npm run bench` for repositories (issue 7): moving a 100 MB group repository between two shards
// against a plain `cp -a` of the same directory in the same run (target: at most 3× its time), and
// cloning over smart HTTP against `git clone --no-local` of the same bare repository by path (the
// same pack generation without HTTP; a plain path clone only hard-links files), and over SSH (issue 37:
// OpenSSH's client with an ed25519 key registered through the API) against the same local clone, then
// 50 SSH clones at once. The scenario asks the runner for two shards in KILN_STORAGES and for SSH on a
// free loopback port (`env`).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchScenario, BenchServer } from '../scenario.js';
import type { Deps } from '../../src/platform/deps.js';
import { createGroup } from '../../src/accounts/create-group.js';
import { createProject } from '../../src/accounts/create-project.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { ensureRepository } from '../../src/repositories/ensure-repository.js';

const MOVE_BYTES = 100 * 1024 * 1024;
const CONCURRENT_SSH_CLONES = 50;
const CLONE_BYTES = 30 * 1024 * 1024;

function run(file: string, args: string[], cwd?: string, extraEnv: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), GIT_TERMINAL_PROMPT: '0', ...extraEnv } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

/**
 * A free loopback port, found synchronously (the scenario's `env` is synchronous and `kiln serve`
 * does not report a port KILN_SSH_PORT=0 picked): a child process binds port 0 and prints the port.
 */
function freeSshPort(): number {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/** `git clone --bare` over SSH with OpenSSH's client and only this key. */
function sshClone(url: string, key: string, destination: string): Promise<string> {
  const command = `ssh -i ${key} -o IdentitiesOnly=yes -o IdentityAgent=none -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR`;
  return run('git', ['clone', '-q', '--bare', url, destination], undefined, { GIT_SSH_COMMAND: command });
}

const round = (value: number) => Math.round(value * 1000) / 1000;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Fill a bare repository with `bytes` of incompressible files in one commit (pushed by local path). */
async function fill(barePath: string, bytes: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-bench-fill-'));
  try {
    await run('git', ['init', '-q', '-b', 'main', dir]);
    const files = Math.ceil(bytes / (4 * 1024 * 1024));
    for (let i = 0; i < files; i += 1) writeFileSync(join(dir, `blob-${i}.bin`), randomBytes(Math.min(4 * 1024 * 1024, bytes - i * 4 * 1024 * 1024)));
    await run('git', ['add', '.'], dir);
    await run('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'Bench data'], dir);
    await run('git', ['-c', 'pack.compression=0', 'push', '-q', barePath, 'main'], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function api(server: BenchServer, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': server.rootToken, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

export const repositoriesScenario: BenchScenario = {
  name: 'repositories',

  // Two shards on this disk (the issue: "between two shards on this disk").
  env(dataDir: string) {
    return {
      KILN_STORAGES: JSON.stringify({ default: { path: join(dataDir, 'repositories', 'default'), weight: 100 }, bench2: { path: join(dataDir, 'repositories', 'bench2'), weight: 0 } }),
      KILN_SSH_PORT: String(freeSshPort()),
    };
  },

  async seed(deps: Deps) {
    const rootRow = await deps.db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
    const root = { user: toAuthUser(rootRow), scopes: ['api'], via: 'personal_access_token' as const, tokenId: null };
    const suffix = randomBytes(3).toString('hex');
    const group = await createGroup(deps, root, { name: `bench-${suffix}`, path: `bench-${suffix}` });
    const wiki = await ensureRepository(deps, { type: 'group', id: Number(group.id) });
    await fill(wiki.path, MOVE_BYTES);
    const project = await createProject(deps, root, { name: 'clone', path: 'clone', namespaceId: Number(group.id) });
    const repo = await ensureRepository(deps, { type: 'project', id: Number(project.id), defaultBranch: 'main' });
    await fill(repo.path, CLONE_BYTES);
    const destination = deps.config.storages.find((shard) => shard.name !== wiki.row.shard);
    const source = deps.config.storages.find((shard) => shard.name === wiki.row.shard);
    return {
      groupId: Number(group.id),
      wikiDiskPath: wiki.row.disk_path,
      sourceShard: wiki.row.shard,
      sourceShardPath: source?.path ?? null,
      destinationShardPath: destination?.path ?? null,
      destinationShard: destination?.name ?? null,
      projectPath: `${group.full_path}/clone`,
      projectRepoPath: repo.path,
      sshPort: deps.config.sshPort,
    };
  },

  async targets() {
    return [];
  },

  async custom(server, seeded) {
    const results = [];
    if (!seeded.destinationShard) {
      results.push({ name: 'storage move of 100 MB vs cp -a', value: 0, unit: 's', target: 'needs two shards in KILN_STORAGES', pass: false });
    } else {
      // Three rounds, moving back and forth, each after a cp -a of the same directory; medians, so
      // one noisy round on a shared disk does not decide the result.
      const shards = [String(seeded.sourceShard), String(seeded.destinationShard)];
      const shardPaths: Record<string, string> = { [shards[0]]: String(seeded.sourceShardPath), [shards[1]]: String(seeded.destinationShardPath) };
      const cpTimes: number[] = [];
      const moveTimes: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        const from = shards[round % 2];
        const to = shards[(round + 1) % 2];
        mkdirSync(shardPaths[to], { recursive: true });
        const copy = join(shardPaths[to], `cp-baseline-${randomBytes(4).toString('hex')}`);
        cpTimes.push(await timed(() => run('cp', ['-a', join(shardPaths[from], String(seeded.wikiDiskPath)), copy])));
        rmSync(copy, { recursive: true, force: true });
        moveTimes.push(await timed(async () => {
          const move = await api(server, 'POST', `/groups/${seeded.groupId}/repository_storage_moves`, { destination_storage_name: to });
          for (;;) {
            const { state } = await api(server, 'GET', `/group_repository_storage_moves/${move.id}`);
            if (state === 'finished') return;
            if (state === 'failed' || state === 'cleanup failed') throw new Error(`the bench move ended ${state}`);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1];
      const cpSeconds = median(cpTimes);
      const moveSeconds = median(moveTimes);
      results.push({ name: 'storage move of 100 MB (POST → finished, median of 3) vs cp -a', value: round(moveSeconds), unit: 's', baseline: round(cpSeconds), target: '≤ 3× cp -a', pass: moveSeconds <= 3 * cpSeconds });
    }

    const dir = mkdtempSync(join(tmpdir(), 'kiln-bench-clone-'));
    try {
      const url = `${server.url.replace('://', `://root:${server.rootToken}@`)}/${seeded.projectPath}.git`;
      // Over SSH too: root's ed25519 key, registered as any user would (POST /user/keys).
      const key = join(dir, 'bench-key');
      await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench@kiln', '-f', key]);
      await api(server, 'POST', '/user/keys', { title: 'bench', key: readFileSync(`${key}.pub`, 'utf8').trim() });
      const sshUrl = `ssh://git@127.0.0.1:${String(seeded.sshPort)}/${seeded.projectPath}.git`;
      // Three rounds of local, HTTP and SSH clones in alternation; medians, because one timed clone on a
      // shared two-core machine swings by a third from run to run.
      const times = { local: [] as number[], http: [] as number[], ssh: [] as number[] };
      for (let round_ = 0; round_ < 3; round_ += 1) {
        times.local.push(await timed(() => run('git', ['clone', '-q', '--bare', '--no-local', String(seeded.projectRepoPath), join(dir, 'local.git')])));
        times.http.push(await timed(() => run('git', ['clone', '-q', '--bare', url, join(dir, 'http.git')])));
        times.ssh.push(await timed(() => sshClone(sshUrl, key, join(dir, 'ssh.git'))));
        for (const clone of ['http.git', 'local.git', 'ssh.git']) rmSync(join(dir, clone), { recursive: true, force: true });
      }
      const middle = (values: number[]) => [...values].sort((a, b) => a - b)[1];
      const [localSeconds, httpSeconds, sshSeconds] = [middle(times.local), middle(times.http), middle(times.ssh)];
      const megabytes = CLONE_BYTES / (1024 * 1024);
      results.push({ name: 'clone throughput over smart HTTP vs git clone --no-local by path (median of 3)', value: round(megabytes / httpSeconds), unit: 'MB/s', baseline: round(megabytes / localSeconds), target: '≥ 0.5× the local clone', pass: httpSeconds <= 2 * localSeconds });
      results.push({ name: 'clone throughput over SSH (OpenSSH, ed25519) vs git clone --no-local by path (median of 3)', value: round(megabytes / sshSeconds), unit: 'MB/s', baseline: round(megabytes / localSeconds), target: '≥ 0.8× the local clone', pass: sshSeconds * 0.8 <= localSeconds });

      // 50 clones at once: each must exit 0 (a failed clone rejects and fails the row); the wall time is reported.
      let completed = 0;
      const wallSeconds = await timed(() =>
        Promise.allSettled(Array.from({ length: CONCURRENT_SSH_CLONES }, (_, i) => sshClone(sshUrl, key, join(dir, `concurrent-${i}.git`)).then(() => (completed += 1)))),
      );
      results.push({ name: `${CONCURRENT_SSH_CLONES} concurrent SSH clones of the ${megabytes} MB repository (wall time; ${completed} exited 0)`, value: round(wallSeconds), unit: 's', target: `all ${CONCURRENT_SSH_CLONES} complete`, pass: completed === CONCURRENT_SSH_CLONES });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return results;
  },
};

export default repositoriesScenario;
