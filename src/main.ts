// The `kiln` command: serve | worker | migrate | admin …  (`kiln <command> --help` for each).
import { loadConfig, ConfigError, type Config } from './config.js';
import { startKiln, openDatabase } from './bootstrap.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { adminCommands } from './admin-commands.js';

const USAGE = `Usage: kiln <command> [options]

Commands:
  serve       Serve HTTP (API, OAuth, alerts, git, pages) and run the job worker
  worker      Run the job worker alone
  migrate     Apply database migrations and exit
  admin       Operator tasks: create-user, create-token, reset-password

Configuration comes from KILN_* environment variables (see README.md).
Run "kiln <command> --help" for a command's options.`;

const HELP: Record<string, string> = {
  serve: 'Usage: kiln serve\n\nServes Kiln on KILN_HOST:KILN_PORT (default 127.0.0.1:8080) and runs the background worker\nunless KILN_RUN_WORKER=false. Stops gracefully on SIGINT/SIGTERM.',
  worker: 'Usage: kiln worker\n\nRuns background jobs (storage moves, incidents, retention) without serving HTTP.',
  migrate: 'Usage: kiln migrate\n\nApplies pending database migrations. On PostgreSQL several nodes may run this at once.',
};

function fail(message: string, code = 2): never {
  process.stderr.write(`kiln: ${message}\n`);
  process.exit(code);
}

async function serve(config: Config): Promise<void> {
  const kiln = await startKiln(config, { processMetrics: true });
  await kiln.app.listen({ host: config.host, port: config.port });
  if (config.runWorker) kiln.worker.start();
  kiln.deps.log.info({ url: config.baseUrl }, 'Kiln is ready');
  const stop = async (signal: string) => {
    kiln.deps.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // A keep-alive connection becomes idle once its in-flight response is sent; close those as they
    // appear so shutdown does not wait for the keep-alive timeout.
    const sweep = setInterval(() => kiln.app.server.closeIdleConnections(), 100);
    await kiln.close();
    clearInterval(sweep);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function worker(config: Config): Promise<void> {
  const kiln = await startKiln(config, { processMetrics: true });
  kiln.worker.start();
  kiln.deps.log.info('worker started');
  const stop = async () => {
    await kiln.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

async function migrate(config: Config): Promise<void> {
  const database = openDatabase(config);
  await migrateToLatest(database);
  await database.close();
  process.stdout.write('migrations applied\n');
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command === 'admin' ? adminCommands.help(rest[0]) : HELP[command] ?? USAGE}\n`);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
  switch (command) {
    case 'serve':
      return serve(config);
    case 'worker':
      return worker(config);
    case 'migrate':
      return migrate(config);
    case 'admin':
      return adminCommands.run(config, rest, fail);
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

// Only run when executed as the CLI, not when imported by tests.
if (process.argv[1] && /(main\.js|kiln(\.js)?)$/.test(process.argv[1])) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`kiln: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

