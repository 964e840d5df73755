// The `kiln` command as an operator runs it: help, configuration errors (exit code 2, no stack
// trace), migrate, admin tasks, first start on an empty data dir, graceful shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from './helpers/database.js';
import { openSqlite, type Database } from '../src/platform/db/database.js';
import { sha256Hex } from '../src/platform/crypto.js';
import { verifyPassword } from '../src/accounts/passwords.js';
import { startKilnProcess } from './clients/helpers/server.js';
import { childDatabaseEnv, runKiln } from './platform/process-helpers.js';

const COMMANDS = ['serve', 'worker', 'migrate', 'admin'];
// Help, configuration errors, first start and shutdown do not depend on the database: run them once.
const onceOnly = describe.skipIf(testDialect() === 'postgres');

onceOnly('kiln --help', () => {
  it('lists every command and exits 0', async () => {
    const { code, stdout } = await runKiln(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
  });

  it('with no command prints the same usage', async () => {
    expect((await runKiln([])).stdout).toContain('Usage: kiln <command>');
  });

  for (const command of [...COMMANDS, 'admin create-user', 'admin create-token', 'admin reset-password']) {
    it(`kiln ${command} --help prints that command's usage and exits 0`, async () => {
      const { code, stdout } = await runKiln([...command.split(' '), '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: kiln ${command}`);
    });
  }

  it('answers an unknown command with exit code 2', async () => {
    const { code, stderr } = await runKiln(['explode']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "explode"');
  });
});

onceOnly('configuration errors', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['a non-numeric KILN_PORT', { KILN_PORT: 'eighty' }, 'KILN_PORT must be a whole number, got "eighty"'],
    ['an out-of-range KILN_PORT', { KILN_PORT: '70000' }, 'KILN_PORT must be between 0 and 65535'],
    ['a non-postgres KILN_DATABASE_URL', { KILN_DATABASE_URL: 'mysql://localhost/kiln' }, 'KILN_DATABASE_URL must be a postgres:// URL'],
    ['an unknown KILN_TIER', { KILN_TIER: 'gold' }, 'KILN_TIER must be one of free, premium, ultimate, got "gold"'],
    ['KILN_STORAGES that is not JSON', { KILN_STORAGES: '{nope' }, 'KILN_STORAGES must be JSON'],
    ['a relative KILN_BASE_URL', { KILN_BASE_URL: 'kiln.example.com' }, 'KILN_BASE_URL must be an absolute http(s) URL'],
    ['a bad KILN_JOB_LEASE_MS', { KILN_JOB_LEASE_MS: '5' }, 'KILN_JOB_LEASE_MS must be between'],
  ];
  for (const [what, env, message] of cases) {
    it(`${what}: a clear message on stderr, exit code 2, no stack trace`, async () => {
      const { code, stderr, stdout } = await runKiln(['serve'], env);
      expect(code).toBe(2);
      expect(stderr).toContain(`kiln: configuration error: ${message}`);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).toBe('');
    });
  }
});

describe('kiln migrate and kiln admin', () => {
  let testDb: TestDatabase;
  let env: Record<string, string>;
  let inspect: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    env = { KILN_DATA_DIR: testDb.dataDir, KILN_INITIAL_ROOT_PASSWORD: 'root-password-1', ...childDatabaseEnv(testDb) };
    inspect = testDb.database;
  });
  afterAll(async () => {
    await inspect.close();
    await testDb.drop();
  });

  it('kiln migrate applies the migrations and exits 0', async () => {
    const { code, stdout, stderr } = await runKiln(['migrate'], env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('migrations applied');
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(inspect.db);
    expect(rows.map((row) => row.name)).toContain('20261122T0900-accounts');
  });

  it('kiln admin create-user creates a user', async () => {
    const { code, stdout } = await runKiln(['admin', 'create-user', '--username', 'ops', '--email', 'ops@example.com', '--password', 'ops-password-1', '--name', 'Ops Person'], env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^created user ops \(id \d+\)$/m);
    const user = await inspect.db.selectFrom('users').selectAll().where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: 'Ops Person', email: 'ops@example.com', admin: 0 });
  });

  it('kiln admin create-token prints a token that is stored as its digest with the given scopes', async () => {
    const { code, stdout } = await runKiln(['admin', 'create-token', '--username', 'ops', '--scopes', 'read_api,read_user', '--name', 'automation'], env);
    expect(code).toBe(0);
    const token = stdout.trim();
    expect(token).toMatch(/^glpat-\S+$/);
    const row = await inspect.db.selectFrom('personal_access_tokens').selectAll().where('token_digest', '=', sha256Hex(token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'automation', scopes: 'read_api read_user', revoked: 0 });
  });

  it('kiln admin reset-password changes the password', async () => {
    const { code, stdout } = await runKiln(['admin', 'reset-password', '--username', 'ops', '--password', 'brand-new-password'], env);
    expect(code).toBe(0);
    expect(stdout).toContain('password of ops reset');
    const user = await inspect.db.selectFrom('users').select('password_hash').where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, 'brand-new-password')).toBe(true);
    expect(await verifyPassword(user.password_hash, 'ops-password-1')).toBe(false);
  });

  it('usage mistakes exit 2 with the command\'s usage', async () => {
    const missing = await runKiln(['admin', 'create-user', '--username', 'x'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email and --password are required');
    const unknown = await runKiln(['admin', 'create-token', '--username', 'ops', '--bogus'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: kiln admin create-token');
    const noSuchUser = await runKiln(['admin', 'create-token', '--username', 'ghost'], env);
    expect(noSuchUser.code).toBe(2);
    expect(noSuchUser.stderr).toContain('no user "ghost"');
    const noSub = await runKiln(['admin'], env);
    expect(noSub.code).toBe(2);
  });

  it('a validation failure is reported without a stack trace', async () => {
    const { code, stderr } = await runKiln(['admin', 'create-user', '--username', 'weak', '--email', 'weak@example.com', '--password', 'short'], env);
    expect(code).toBe(2);
    expect(stderr).toContain('password is too short');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('two nodes running kiln migrate at once', () => {
  it('both succeed and every migration is applied exactly once', { timeout: 60_000 }, async () => {
    const testDb = await createTestDatabase();
    try {
      const env = { KILN_DATA_DIR: testDb.dataDir, ...childDatabaseEnv(testDb) };
      const results = await Promise.all([runKiln(['migrate'], env), runKiln(['migrate'], env), runKiln(['migrate'], env)]);
      expect(results.map((result) => [result.code, result.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
      const { rows } = await sql<{ name: string; n: number }>`select name, count(*) as n from kysely_migration group by name`.execute(testDb.database.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
    } finally {
      await testDb.database.close();
      await testDb.drop();
    }
  });
});

onceOnly('first start of kiln serve on an empty data dir', () => {
  it('creates the secrets file and initial_root_password with mode 0600, and the password signs root in', { timeout: 60_000 }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'kiln-first-')), 'data');
    const kiln = await startKilnProcess({ dataDir, env: { KILN_INITIAL_ROOT_PASSWORD: '', KILN_LOG_LEVEL: 'info' } });
    try {
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      const passwordFile = join(dataDir, 'initial_root_password');
      expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
      const password = readFileSync(passwordFile, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(kiln.output()).toContain(passwordFile);
      expect(kiln.output()).not.toContain(password);
      const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
      expect(Buffer.from(secrets.instance_key, 'base64')).toHaveLength(32);
      await kiln.stop();
      const db = openSqlite(join(dataDir, 'kiln.sqlite3'));
      try {
        const root = await db.db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
        expect(root.admin).toBe(1);
        expect(await verifyPassword(root.password_hash, password)).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      await kiln.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('with KILN_INITIAL_ROOT_PASSWORD writes no password file; KILN_INITIAL_ROOT_TOKEN is a root token with api and sudo', { timeout: 60_000 }, async () => {
    const kiln = await startKilnProcess({ rootToken: 'seeded-root-token-for-automation' });
    try {
      expect(existsSync(join(kiln.dataDir, 'initial_root_password'))).toBe(false);
      const response = await fetch(`${kiln.url}/api/v4/personal_access_tokens/self`, { headers: { 'private-token': 'seeded-root-token-for-automation' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ scopes: ['api', 'sudo'], active: true });
      const user = await (await fetch(`${kiln.url}/api/v4/user`, { headers: { authorization: 'Bearer seeded-root-token-for-automation' } })).json();
      expect(user).toMatchObject({ username: 'root', is_admin: true });
    } finally {
      await kiln.stop();
    }
  });
});

onceOnly('graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish, then the process exits 0', { timeout: 60_000 }, async () => {
    const kiln = await startKilnProcess();
    const body = JSON.stringify({ name: 'finished-during-shutdown' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${kiln.url}/api/v4/projects`, {
        method: 'POST',
        headers: { 'private-token': kiln.rootToken, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // Half the body now; the request is in flight when SIGTERM arrives.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        kiln.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const exited = new Promise<number | null>((resolve) => kiln.child.once('exit', (code) => resolve(code)));
    const result = await response;
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body).path_with_namespace).toBe('root/finished-during-shutdown');
    expect(await exited).toBe(0);
    await kiln.stop();
  });
});
