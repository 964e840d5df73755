// PostgreSQL is reached once before a command writes anything, so a refused KILN_DATABASE_URL (no
// server, wrong password, no such database) stops it with one line and leaves no data directory
// behind. The error is pg's own: main.ts tells it as a configuration error naming the variable.
import type { Config } from '../config.js';
import { openPostgres } from '../platform/db/database.js';
import { hasMigrationsTable } from './snapshot-queries.js';

export async function checkDatabaseReachable(config: Pick<Config, 'databaseUrl'>): Promise<void> {
  if (!config.databaseUrl) return;
  const database = openPostgres({ url: config.databaseUrl, poolSize: 1, readCache: false });
  try {
    await hasMigrationsTable(database.db);
  } finally {
    await database.close();
  }
}
