// The `kiln` command: serve | worker | migrate | admin …  (`kiln <command> --help` for each).
// A mistake in the configuration or the call is one line naming the variable or flag and its value,
// exit code 2, found before anything is written; other failures exit 1.
// The application (bootstrap.js, admin-commands.js) and the operator's checks (operations/api.js, which
// brings the database drivers, backup and restore: ~0.6 s of loading) are imported only by the commands
// that run them, so help, --version and configuration errors answer at once (and admin-commands.js
// loads what each call needs once the call is accepted, so its usage errors do too).
import { loadConfig, ConfigError, withoutPassword, type Config } from './config.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from './platform/version.js';
import { UsageError } from './platform/errors.js';
import type { Kiln } from './bootstrap.js';

/** The operator's checks and the start banner, loaded by the commands that use them. */
const operations = () => import('./operations/api.js');

const ADMIN_COMMANDS = ['create-user', 'create-token', 'reset-password', 'backup', 'restore'];

const USAGE = `Usage: kiln <command> [options]

Commands:
  serve       Serve HTTP (API, OAuth, alerts, git, pages) and run the job worker
  worker      Run the job worker alone
  migrate     Apply database migrations and exit
  runner      Run CI jobs for a Kiln server (the runner protocol's client; no database needed)
  admin       Operator tasks: ${ADMIN_COMMANDS.join(', ')}

Options:
  --version   Print Kiln's version and the GitLab API version it speaks
  --help      This text; "kiln <command> --help" for a command's options

Configuration comes from KILN_* environment variables (docs/operations/configuration.md).`;

const HELP: Record<string, string> = {
  serve: 'Usage: kiln serve\n\nServes Kiln on KILN_HOST:KILN_PORT (default 127.0.0.1:8080), git over SSH on KILN_SSH_PORT (default\n2222; off to disable) and runs the background worker unless KILN_RUN_WORKER=false. Stops gracefully on SIGINT/SIGTERM.',
  worker: 'Usage: kiln worker\n\nRuns background jobs (storage moves, incidents, retention) without serving HTTP.',
  migrate: 'Usage: kiln migrate\n\nApplies pending database migrations and names them. On PostgreSQL several nodes may run this at once.',
};

const COMMANDS = new Set(['serve', 'worker', 'migrate', 'admin', 'runner']);

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fail(message: string, code = 2): never {
  process.stderr.write(`kiln: ${message}\n`);
  throw new Exit(code);
}

/**
 * Errors of the database connection that are the configuration's fault (PostgreSQL unreachable,
 * refused credentials, no such database), told as a configuration error.
 */
function databaseConfigError(config: Config, error: unknown): ConfigError | null {
  const code = (error as { code?: string }).code;
  if (!config.databaseUrl || !code) return null;
  const known: Record<string, string> = {
    ECONNREFUSED: 'refuses connections',
    ENOTFOUND: 'has a host that does not resolve',
    ETIMEDOUT: 'does not answer',
    '28P01': 'rejects the user name or password',
    '28000': 'rejects the user',
    '3D000': 'names a database that does not exist (createdb it first)',
  };
  return known[code] ? new ConfigError(`KILN_DATABASE_URL ${withoutPassword(config.databaseUrl)} ${known[code]}`) : null;
}

async function serve(config: Config): Promise<void> {
  const { checkListenAddress, checkDatabaseReachable, checkSshListenAddress, checkDirectories, startBanner, wantsText } = await operations();
  await checkListenAddress(config);
  await checkDatabaseReachable(config);
  const sshFree = await checkSshListenAddress(config);
  checkDirectories(config);
  const { startKiln } = await import('./bootstrap.js');
  const kiln = await startKiln(config, { processMetrics: true });
  try {
    await kiln.app.listen({ host: config.host, port: config.port });
    if (sshFree) await kiln.listenSsh();
  } catch (error) {
    await kiln.close();
    throw error;
  }
  if (config.sshPort !== null && !sshFree) {
    kiln.deps.log.warn({ port: config.sshPort }, `git over SSH is off: port ${config.sshPort} is in use on ${config.host} (set KILN_SSH_PORT to another port, or to off)`);
  }
  if (config.runWorker) kiln.worker.start();
  const runner = config.builtinRunner ? await startBuiltinRunner(kiln, config) : null;
  const { warmHighlighter } = await import('./platform/web/highlight/highlighter.js');
  warmHighlighter();
  // Before the banner: a supervisor that stops Kiln as soon as it says it is up gets a graceful stop.
  const stop = async (signal: string) => {
    kiln.deps.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // A keep-alive connection becomes idle once its in-flight response is sent; close those as they
    // appear so shutdown does not wait for the keep-alive timeout.
    const sweep = setInterval(() => kiln.app.server.closeIdleConnections(), 100);
    // The runner first, while the server still answers its jobs' last reports.
    await runner?.stop();
    await kiln.close();
    clearInterval(sweep);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  const banner = startBanner(config);
  if (wantsText(config, Boolean(process.stdout.isTTY))) {
    if (config.logLevel !== 'silent') process.stdout.write(`\n${banner.lines.map((line) => `  ${line}`).join('\n')}\n\n`);
  } else {
    kiln.deps.log.info({ url: config.baseUrl, initial_root_password: banner.passwordFile ?? undefined }, banner.sentence);
  }
}

/** KILN_BUILTIN_RUNNER: a `kiln runner` child that reaches this server on loopback. */
async function startBuiltinRunner(kiln: Kiln, config: Config) {
  const address = kiln.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { startBuiltinRunner: start } = await import('./ci/index.js');
  return start(kiln.deps, { url, dataDir: config.dataDir, concurrent: config.builtinRunnerConcurrent });
}

async function worker(config: Config): Promise<void> {
  const { checkDatabaseReachable, checkDirectories } = await operations();
  await checkDatabaseReachable(config);
  checkDirectories(config);
  const { startKiln } = await import('./bootstrap.js');
  const kiln = await startKiln(config, { processMetrics: true });
  kiln.worker.start();
  const stop = async () => {
    await kiln.close();
    process.exit(0);
  };
  // Before "worker started", for the same reason as in serve.
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  kiln.deps.log.info('worker started');
}

async function migrate(config: Config): Promise<void> {
  if (!config.databaseUrl) (await operations()).checkDirectories(config);
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('./bootstrap.js'), import('./platform/db/migrate.js')]);
  const database = openDatabase(config);
  let applied: string[];
  try {
    applied = await migrateToLatest(database);
  } finally {
    await database.close();
  }
  if (applied.length === 0) process.stdout.write('no migrations pending: the database is up to date\n');
  else process.stdout.write(`applied ${applied.length} ${applied.length === 1 ? 'migration' : 'migrations'}:\n${applied.map((name) => `  ${name}\n`).join('')}`);
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`kiln ${KILN_VERSION} (GitLab API v4, as GitLab ${GITLAB_COMPAT_VERSION})\n`);
    return;
  }
  if (!COMMANDS.has(command)) fail(`unknown command "${command}" (kiln --help lists the commands)`);
  if (rest.includes('--help') || rest.includes('-h')) {
    if (command === 'runner') process.stdout.write(`${(await import('./runner/index.js')).RUNNER_HELP}\n`);
    else process.stdout.write(`${command === 'admin' ? await (await import('./admin-commands.js')).adminCommands.help(rest[0]) : HELP[command]}\n`);
    return;
  }
  if (command === 'runner') {
    // The runner talks to a server over HTTP only: no KILN_* configuration, no database.
    const { runnerCommand, RunnerUsageError } = await import('./runner/index.js');
    try {
      return await runnerCommand(rest, process.env, (line) => process.stdout.write(`${line}\n`));
    } catch (error) {
      if (error instanceof RunnerUsageError) fail(error.message);
      throw error;
    }
  }
  if (command !== 'admin' && rest.length > 0) fail(`${command}: unexpected argument "${rest[0]}" (configuration comes from KILN_* variables)`);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'worker':
      return worker(config);
    case 'migrate':
      return migrate(config);
    default: {
      const { adminCommands } = await import('./admin-commands.js');
      const work = await adminCommands.prepare(rest);
      const { checkDatabaseReachable, checkDirectories } = await operations();
      await checkDatabaseReachable(config);
      // backup reads the data dir and must not create it; restore checks its targets itself.
      if (rest[0] !== 'backup' && rest[0] !== 'restore') checkDirectories(config);
      return work(config);
    }
  }
}

export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error) {
    if (error instanceof Exit) process.exit(error.code);
    if (error instanceof ConfigError) {
      process.stderr.write(`kiln: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`kiln: ${error.message}\n`);
      process.exit(2);
    }
    let told: ConfigError | null = null;
    try {
      told = databaseConfigError(loadConfig(), error);
    } catch {
      // The configuration loaded before the failure; it cannot fail now.
    }
    if (told) {
      process.stderr.write(`kiln: configuration error: ${told.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`kiln: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

// Only run when executed as the CLI, not when imported by tests.
if (process.argv[1] && /(main\.js|kiln(\.js)?)$/.test(process.argv[1])) void main(process.argv.slice(2));
