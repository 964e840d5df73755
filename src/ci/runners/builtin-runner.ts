// The built-in runner of `kiln serve` (KILN_BUILTIN_RUNNER): an instance runner registered at the
// first start, its token kept in <data>/ci/builtin-runner.token (mode 0600) and reused afterwards,
// run as a `kiln runner` child process. A child, not the server's own event loop: a job's shell and
// the runner's work must not share (or block, or crash) the process serving requests. The child
// holds an IPC channel to the server; when it closes (the server stopping, or dying) the child
// kills its running jobs and exits.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../../platform/deps.js';
import { tokenDigest } from '../tokens.js';
import { createRunner } from './register-runner.js';

export interface BuiltinRunnerOptions {
  /** Where the server listens, as the runner reaches it (loopback). */
  url: string;
  dataDir: string;
  concurrent: number;
}

export interface BuiltinRunner {
  /** Ends the child (its running jobs are killed and reported failed) and resolves when it exited. */
  stop(): Promise<void>;
}

/** `kiln`'s entry point beside this module, in the source tree and in dist/ alike. */
const MAIN = fileURLToPath(new URL('../../main.js', import.meta.url));
/** A child that exits on its own is started again after this long. */
const RESTART_MS = 5000;
/** How long a stopping child may take to report its jobs before it is killed. */
const STOP_GRACE_MS = 10_000;

export function builtinRunnerTokenPath(dataDir: string): string {
  return join(dataDir, 'ci', 'builtin-runner.token');
}

/**
 * The built-in runner's token: the stored one while its runner exists (an administrator may have
 * deleted it, or the data dir met another database), else a new instance runner's, stored.
 */
export async function builtinRunnerToken(deps: Deps, dataDir: string): Promise<{ token: string; runnerId: number; created: boolean }> {
  const path = builtinRunnerTokenPath(dataDir);
  const stored = (await readFile(path, 'utf8').catch(() => '')).trim();
  if (stored !== '') {
    const row = await deps.db.selectFrom('ci_runners').select('id').where('token_digest', '=', tokenDigest(stored)).executeTakeFirst();
    if (row) return { token: stored, runnerId: Number(row.id), created: false };
  }
  const { runner, token } = await createRunner(deps, { runnerType: 'instance_type' }, { description: `kiln serve built-in runner (${hostname()})`, runUntagged: true }, { creatorId: null, registration: 'authenticated_user' });
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole, then renamed: a crash never leaves half a token behind.
  await writeFile(`${path}.tmp`, `${token}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
  return { token, runnerId: Number(runner.id), created: true };
}

export async function startBuiltinRunner(deps: Deps, options: BuiltinRunnerOptions): Promise<BuiltinRunner> {
  const log = deps.log.child({ component: 'builtin-runner' });
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;

  async function spawnChild(): Promise<void> {
    const { token, runnerId, created } = await builtinRunnerToken(deps, options.dataDir);
    if (created) log.info({ runner_id: runnerId }, 'registered the built-in runner as an instance runner');
    // The jobs' shells start from this environment: without Kiln's own settings (the database URL among them).
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KILN_')));
    const args = ['runner', '--url', options.url, '--clone-url', options.url, '--concurrent', String(options.concurrent), '--builds-dir', join(options.dataDir, 'ci', 'builds'), '--cache-dir', join(options.dataDir, 'ci', 'cache')];
    const started = fork(MAIN, args, { env: { ...env, KILN_RUNNER_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] });
    child = started;
    for (const stream of [started.stdout, started.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => log.info({ runner_id: runnerId }, line));
    }
    started.once('exit', (code, signal) => {
      if (child === started) child = null;
      if (stopping) return;
      log.warn({ code, signal }, `the built-in runner exited; starting it again in ${RESTART_MS / 1000} s`);
      restartTimer = setTimeout(() => {
        restartTimer = null;
        if (!stopping) spawnChild().catch((error: unknown) => log.error({ err: error }, 'the built-in runner did not start'));
      }, RESTART_MS);
    });
  }

  await spawnChild();
  return {
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      const kill = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
      // Closing the channel is the child's signal to kill its jobs, report them and exit.
      if (running.connected) running.disconnect();
      else running.kill('SIGKILL');
      await exited;
      clearTimeout(kill);
    },
  };
}
