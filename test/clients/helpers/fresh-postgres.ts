// A fresh PostgreSQL database for one client-test file, made on the server KILN_TEST_DATABASE_URL
// names and dropped afterwards: the suite runs `kiln serve` on it as an operator would.
import { afterAll, beforeAll, describe } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

const adminUrl = process.env.KILN_TEST_DATABASE_URL;

async function adminQuery(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on KILN_TEST_DATABASE_URL's server, or null without one (the suite then runs on SQLite). */
export async function freshPostgres(prefix: string): Promise<FreshPostgres | null> {
  if (!adminUrl) return null;
  // An identifier as written (no quoting): letters, digits and underscores only.
  const database = `kiln_clients_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${database}`);
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${database}`;
  return { url: parsed.toString(), // `with (force)`: a node that was killed may leave connections behind.
    drop: () => adminQuery(`drop database if exists ${database} with (force)`) };
}

/** `describe('on PostgreSQL')` around `body`, which gets the database's URL once it exists (skipped without a server). */
export function onFreshPostgres(prefix: string, body: (databaseUrl: () => string) => void): void {
  describe.skipIf(!adminUrl)('on PostgreSQL', () => {
    let database: FreshPostgres | null = null;
    beforeAll(async () => {
      database = await freshPostgres(prefix);
    });
    afterAll(async () => {
      await database?.drop();
    });
    body(() => database?.url ?? '');
  });
}
