// Opens the database, migrates, loads the instance secrets (refusing ones the database was not
// initialised with), and assembles the dependencies, the app and the worker. `kiln serve`,
// `kiln worker`, the tests and the benchmarks all start Kiln here.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openPostgres, openSqlite, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import type { InstanceSecrets } from './platform/secrets.js';
import { loadInstanceSecrets, logDestination } from './operations/api.js';
import { SecretBox } from './platform/crypto.js';
import { ensurePrivateDirectory } from './platform/data-dir.js';
import { systemClock, type Clock } from './platform/clock.js';
import { newAuthRegistry } from './platform/auth/registry.js';
import { createMetrics } from './platform/metrics.js';
import { createLogger } from './platform/logger.js';
import { Worker } from './platform/jobs/worker.js';
import { DomainEvents } from './platform/domain-events.js';
import { InstanceCaches } from './platform/instance-caches.js';
import type { Deps } from './platform/deps.js';
import type { Feature } from './platform/feature.js';
import { buildApp } from './app.js';
import { features as allFeatures } from './features.js';
import type { SshServer, SshServerOptions } from './ssh/api.js';

export interface StartOptions {
  clock?: Clock;
  log?: Logger;
  database?: Database;
  secrets?: InstanceSecrets;
  features?: Feature[];
  /** Collect Node's default process metrics (off in tests, where many apps share a process). */
  processMetrics?: boolean;
}

export interface Kiln {
  deps: Deps;
  app: FastifyInstance;
  worker: Worker;
  /** Start the SSH server on KILN_HOST:KILN_SSH_PORT (`kiln serve`; tests may pick their port and limits). */
  listenSsh(options?: SshServerOptions & { port?: number }): Promise<SshServer>;
  close(): Promise<void>;
}

/** `log`: a serving process's logger; with it, SQLite checkpoints run on a thread of their own. */
export function openDatabase(config: Config, log?: Logger): Database {
  if (config.databaseUrl) {
    // A connection the server ended between statements (restart, failover): the pool replaces it.
    const onConnectionError = (error: Error) => log?.warn({ err: error }, 'database connection lost; the pool opens another when one is needed');
    return openPostgres({ url: config.databaseUrl, readCache: config.readCache, onConnectionError });
  }
  const backgroundCheckpoints = log && { onError: (message: string) => log.warn({ err: message }, 'background WAL checkpoint failed; the writer checkpoints instead') };
  return openSqlite(join(config.dataDir, 'kiln.sqlite3'), config.sqliteSynchronous, { readCache: config.readCache, backgroundCheckpoints });
}

export async function startKiln(config: Config, options: StartOptions = {}): Promise<Kiln> {
  ensurePrivateDirectory(config.dataDir);
  const log = options.log ?? createLogger(config.logLevel, logDestination(config));
  const database = options.database ?? openDatabase(config, log);
  const clock = options.clock ?? systemClock;
  let secrets: InstanceSecrets;
  try {
    await migrateToLatest(database);
    secrets = await loadInstanceSecrets(database.db, config.dataDir, clock.now(), options.secrets);
  } catch (error) {
    // Refused before anything else is written (the root user, jobs): close what was opened.
    if (!options.database) await database.close();
    throw error;
  }
  const features = options.features ?? allFeatures;
  let worker: Worker | null = null;
  const deps: Deps = {
    config,
    db: database.db,
    dialect: database.dialect,
    readCache: database.readCache,
    groupCommit: database.groupCommit,
    caches: new InstanceCaches(),
    clock,
    secrets,
    box: new SecretBox(secrets.instanceKey),
    log,
    auth: newAuthRegistry(),
    metrics: createMetrics(options.processMetrics ?? false),
    pokeWorker: () => worker?.poke(),
    domainEvents: new DomainEvents(() => worker?.poke()),
  };
  const app = await buildApp(deps, features);
  for (const feature of features) await feature.onStart?.(deps);
  const handlers = Object.assign({}, ...features.map((feature) => feature.jobs ?? {}));
  worker = new Worker(deps, handlers);
  let ssh: SshServer | null = null;
  return {
    deps,
    app,
    worker,
    async listenSsh(options = {}) {
      // Loaded here, not at the top: `kiln admin` and `kiln worker` never pay for the SSH library.
      const { startSshServer } = await import('./ssh/api.js');
      ssh = await startSshServer(deps, config.host, options.port ?? config.sshPort ?? 0, options);
      return ssh;
    },
    async close() {
      await worker?.stop();
      await Promise.all([app.close(), ssh?.close()]);
      await database.close();
    },
  };
}
