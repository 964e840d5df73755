// Helpers for the operator tests: run the built `kiln` with standard input, and give a test its own
// PostgreSQL database (for restores, which need an empty one).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { MAIN, type CliResult } from '../platform/process-helpers.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';

/** `node dist/src/main.js …args` with only the given environment (plus PATH), `input` on its standard input. */
export function runKilnWithInput(args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KILN_LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined); // a command that refuses before reading closes it early
    child.stdin.end(input);
  });
}

export interface ScratchDatabase {
  /** A URL of the new database whose search path is `schema`. */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database beside KILN_TEST_DATABASE_URL's, reached with `schema` as its search path. */
export async function createScratchDatabase(schema: string): Promise<ScratchDatabase> {
  const base = process.env.KILN_TEST_DATABASE_URL!;
  const name = `kiln_scratch_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  url.search = '';
  // libpq decodes %20 but not the + that URLSearchParams writes for a space.
  return {
    url: `${url.toString()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface BackupWorkspace {
  /** A folder of the test's own for checkouts, backups and restored data dirs. */
  readonly work: string;
  /** The database (and data dir) of the instance backed up. */
  readonly testDb: TestDatabase;
  /** The environment a restore needs for its database: on PostgreSQL a new empty one (dropped after the tests). */
  restoreEnv(): Promise<Record<string, string>>;
}

/** A backup test's folder and database, made before its tests and removed after them. */
export function backupWorkspace(prefix: string): BackupWorkspace {
  let work = '';
  let testDb: TestDatabase | undefined;
  const scratches: ScratchDatabase[] = [];
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), prefix));
    testDb = await createTestDatabase();
  });
  // Dropping a PostgreSQL database waits for a checkpoint (1-8 s each on a busy machine): the drops run
  // together, where one checkpoint can serve them all, within a budget that allows for a slow disk.
  afterAll(async () => {
    await testDb?.database.close();
    await Promise.all([testDb?.drop(), ...scratches.map((scratch) => scratch.drop())]);
    rmSync(work, { recursive: true, force: true });
  }, 120_000);
  return {
    get work() {
      return work;
    },
    get testDb() {
      return testDb!;
    },
    async restoreEnv(): Promise<Record<string, string>> {
      if (testDialect() !== 'postgres') return {};
      const scratch = await createScratchDatabase(testDb!.schema!);
      scratches.push(scratch);
      return { KILN_DATABASE_URL: scratch.url };
    },
  };
}
