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

/** `describe('on PostgreSQL')` around `body`, which gets the database's URL once it exists (skipped without a server). */
export function onFreshPostgres(prefix: string, body: (databaseUrl: () => string) => void): void {
  describe.skipIf(!adminUrl)('on PostgreSQL', () => {
    const database = `kiln_clients_${prefix}_${randomBytes(4).toString('hex')}`;
    let url = '';
    beforeAll(async () => {
      await adminQuery(`create database ${database}`);
      const parsed = new URL(adminUrl!);
      parsed.pathname = `/${database}`;
      url = parsed.toString();
    });
    afterAll(async () => {
      await adminQuery(`drop database if exists ${database}`);
    });
    body(() => url);
  });
}
