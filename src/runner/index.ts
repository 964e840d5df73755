// `kiln runner`: Kiln's own runner, the client side of GitLab's runner protocol with a shell
// executor (docs/ci.md "kiln runner"). `kiln runner register` turns a registration token into a
// runner (or checks a `glrt-` token); `kiln runner` then asks for jobs and runs them. It needs no
// database or KILN_* configuration: only the server's URL and the runner's token.
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { RunnerClient } from './protocol-client.js';
import { DEFAULT_CACHE_MAX_BYTES } from './cache.js';
import { startRunner } from './run-runner.js';

export { startRunner } from './run-runner.js';
export type { RunnerOptions, RunningRunner } from './run-runner.js';

export const RUNNER_HELP = `Usage: kiln runner --url URL --token TOKEN [--concurrent N] [--builds-dir DIR] [--clone-url URL]
                   [--cache-dir DIR] [--cache-max-size MIB]
       kiln runner register --url URL (--registration-token TOKEN | --token glrt-TOKEN)
                            [--description TEXT] [--tag-list a,b] [--run-untagged] [--locked]

Runs CI jobs for a Kiln (or GitLab) server with the shell executor (bash). A job runs in a fresh
directory under --builds-dir (default ${join(tmpdir(), 'kiln-runner', 'builds')}), N jobs at a time
(--concurrent, default 1). The jobs' caches are kept in --cache-dir (default: a "cache" folder
beside the builds dir) as DIR/<project path>/<key>/cache.zip; a cache over --cache-max-size MiB
(default ${DEFAULT_CACHE_MAX_BYTES / 1024 / 1024}) is neither saved nor restored. --clone-url replaces the scheme,
host and port of the git URL the server gives when the runner reaches the server by another
address. The token may come from the KILN_RUNNER_TOKEN environment variable instead of --token.
SIGINT/SIGTERM stop asking for jobs; running jobs finish first (a second signal exits at once).`;

export class RunnerUsageError extends Error {}

function flags(argv: string[], booleans: string[]): Record<string, string | true> {
  const found: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new RunnerUsageError(`runner: unexpected argument "${arg}" (kiln runner --help)`);
    const [, name, inline] = match;
    if (booleans.includes(name)) found[name] = inline === undefined ? true : inline;
    else if (inline !== undefined) found[name] = inline;
    else if (i + 1 < argv.length) found[name] = argv[(i += 1)];
    else throw new RunnerUsageError(`runner: --${name} needs a value`);
  }
  return found;
}

function text(found: Record<string, string | true>, name: string): string | undefined {
  const value = found[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function url(found: Record<string, string | true>, name: string): string | undefined {
  const value = text(found, name);
  if (value === undefined) return undefined;
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new RunnerUsageError(`runner: --${name} ${value} is not an http(s) URL`);
  }
  return value;
}

function allowedFlags(found: Record<string, string | true>, allowed: string[]): void {
  const unknown = Object.keys(found).find((name) => !allowed.includes(name));
  if (unknown) throw new RunnerUsageError(`runner: unknown option --${unknown} (kiln runner --help)`);
}

async function register(argv: string[], out: (line: string) => void): Promise<void> {
  const found = flags(argv, ['run-untagged', 'locked']);
  allowedFlags(found, ['url', 'registration-token', 'token', 'description', 'tag-list', 'run-untagged', 'locked']);
  const server = url(found, 'url');
  if (!server) throw new RunnerUsageError('runner register: --url is required');
  const token = text(found, 'token');
  const registration = text(found, 'registration-token');
  if (token) {
    // GitLab 15.10's flow: the runner was created in the UI or API; registering only checks the token.
    const verified = await new RunnerClient(server, token).verify();
    out(`runner ${verified.id} verified; run it with: kiln runner --url ${server} --token <the token>`);
    return;
  }
  if (!registration) throw new RunnerUsageError('runner register: --registration-token or --token is required');
  const attributes: Record<string, unknown> = {};
  if (text(found, 'description')) attributes.description = text(found, 'description');
  if (text(found, 'tag-list')) attributes.tag_list = text(found, 'tag-list');
  if (found['run-untagged'] !== undefined) attributes.run_untagged = found['run-untagged'] === true || found['run-untagged'] === 'true';
  if (found.locked !== undefined) attributes.locked = found.locked === true || found.locked === 'true';
  const runner = await RunnerClient.register(server, registration, attributes);
  out(`runner ${runner.id} registered; its token (shown once): ${runner.token}`);
  out(`run it with: kiln runner --url ${server} --token ${runner.token}`);
}

/** The `kiln runner …` command; resolves when the runner stopped. */
export async function runnerCommand(argv: string[], env: Record<string, string | undefined>, out: (line: string) => void): Promise<void> {
  if (argv[0] === 'register') return register(argv.slice(1), out);
  const found = flags(argv, []);
  allowedFlags(found, ['url', 'token', 'concurrent', 'builds-dir', 'clone-url', 'cache-dir', 'cache-max-size']);
  const server = url(found, 'url');
  // From the environment, the token stays out of the process list (`kiln serve` starts its built-in runner so).
  const token = text(found, 'token') ?? (env.KILN_RUNNER_TOKEN || undefined);
  if (!server || !token) throw new RunnerUsageError('runner: --url and --token are required (kiln runner --help)');
  const concurrent = text(found, 'concurrent') === undefined ? 1 : Number(text(found, 'concurrent'));
  if (!Number.isInteger(concurrent) || concurrent < 1 || concurrent > 64) throw new RunnerUsageError(`runner: --concurrent ${text(found, 'concurrent')} is not a number from 1 to 64`);
  const buildsDir = resolve(text(found, 'builds-dir') ?? join(tmpdir(), 'kiln-runner', 'builds'));
  const cacheDir = resolve(text(found, 'cache-dir') ?? join(dirname(buildsDir), 'cache'));
  const cacheMaxSize = text(found, 'cache-max-size') === undefined ? DEFAULT_CACHE_MAX_BYTES / 1024 / 1024 : Number(text(found, 'cache-max-size'));
  if (!Number.isInteger(cacheMaxSize) || cacheMaxSize < 1 || cacheMaxSize > 1024 * 1024) throw new RunnerUsageError(`runner: --cache-max-size ${text(found, 'cache-max-size')} is not a number of MiB from 1 to 1048576`);
  // The job's shell starts from the runner's environment, as GitLab Runner's shell executor does.
  const baseEnv = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('KILN_')));
  const runner = await startRunner({
    url: server, token, concurrent, buildsDir, cacheDir, cacheMaxBytes: cacheMaxSize * 1024 * 1024, cloneUrl: url(found, 'clone-url'), baseEnv,
    onJob: (jobId, result) => out(`job ${jobId}: ${result ? `${result.state}${result.failureReason ? ` (${result.failureReason})` : ''}` : 'canceled'}`),
    onError: (error) => out(`error: ${error instanceof Error ? error.message : String(error)}`),
  });
  out(`kiln runner: asking ${server} for jobs (${concurrent} at a time, builds in ${buildsDir}, caches in ${cacheDir})`);
  await new Promise<void>((done) => {
    // Started by `kiln serve` with an IPC channel: the channel closing means the server stopped (or
    // died), and the runner goes with it, killing its running jobs.
    if (process.channel) {
      // Output goes to the server's pipes, which a dead server closed: a write must not crash the runner.
      process.stdout.on('error', () => undefined);
      process.once('disconnect', () => {
        out('kiln runner: the server went away; stopping the running jobs');
        void runner.abort().then(() => process.exit(0));
      });
    }
    const stop = () => {
      process.once('SIGINT', () => process.exit(1));
      process.once('SIGTERM', () => process.exit(1));
      out('kiln runner: stopping; waiting for running jobs');
      void runner.stop().then(done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
