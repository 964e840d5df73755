// The `kiln` command as an operator runs it: help and version, configuration and usage errors (one
// line naming the variable or flag and its value, exit code 2, nothing written), migrate, admin
// tasks with passwords on standard input, first start on an empty data dir with its banner, logs
// for people and for collectors, graceful shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from './helpers/database.js';
import { openSqlite, type Database } from '../src/platform/db/database.js';
import { sha256Hex } from '../src/platform/crypto.js';
import { verifyPassword } from '../src/accounts/passwords.js';
import { KILN_VERSION } from '../src/platform/version.js';
import { freePort, startKilnProcess } from './clients/helpers/server.js';
import { childDatabaseEnv, MAIN, runKiln, type CliResult } from './platform/process-helpers.js';
import { runKilnWithInput } from './ops/helpers.js';

const COMMANDS = ['serve', 'worker', 'migrate', 'admin'];
const ADMIN_COMMANDS = ['create-user', 'create-token', 'reset-password', 'backup', 'restore'];
// Help, configuration errors, first start and shutdown do not depend on the database: run them once.
const onceOnly = describe.skipIf(testDialect() === 'postgres');

/** Exit code 2 and exactly one line on stderr, nothing on stdout, no stack trace. */
function expectOneLineError(result: CliResult, message: string | RegExp): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
}

function scratchDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'kiln-cli-')), 'data');
}

onceOnly('kiln --help and kiln --version', () => {
  it('lists every command and exits 0', async () => {
    const { code, stdout } = await runKiln(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
    expect(stdout).toMatch(/^ {2}--version\s/m);
  });

  it('with no command prints the same usage', async () => {
    expect((await runKiln([])).stdout).toContain('Usage: kiln <command>');
  });

  for (const command of [...COMMANDS, ...ADMIN_COMMANDS.map((name) => `admin ${name}`)]) {
    it(`kiln ${command} --help prints that command's usage and exits 0`, async () => {
      const { code, stdout } = await runKiln([...command.split(' '), '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: kiln ${command}`);
    });
  }

  it('kiln --version prints the version and exits 0, without reading the configuration', async () => {
    const { code, stdout, stderr } = await runKiln(['--version'], { KILN_PORT: 'not-a-port' });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(`kiln ${KILN_VERSION} (GitLab API v4, as GitLab 14.3.0)\n`);
  });

  it('answers an unknown command with one line and exit code 2', async () => {
    expectOneLineError(await runKiln(['explode']), 'kiln: unknown command "explode"');
  });

  it('answers an argument to serve with one line and exit code 2', async () => {
    expectOneLineError(await runKiln(['serve', '--port', '80']), 'kiln: serve: unexpected argument "--port"');
  });
});

onceOnly('configuration errors', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['a non-numeric KILN_PORT', { KILN_PORT: 'eighty' }, 'KILN_PORT must be a whole number, got "eighty"'],
    ['an out-of-range KILN_PORT', { KILN_PORT: '70000' }, 'KILN_PORT must be between 0 and 65535, got 70000'],
    ['a KILN_HOST that is no address', { KILN_HOST: '999.1.1.1' }, 'KILN_HOST must be an IP address or a host name, got "999.1.1.1"'],
    ['a KILN_HOST with a space', { KILN_HOST: 'kiln host' }, 'KILN_HOST must be an IP address or a host name, got "kiln host"'],
    ['a non-postgres KILN_DATABASE_URL', { KILN_DATABASE_URL: 'mysql://kiln:hunter2@localhost/kiln' }, 'KILN_DATABASE_URL must be a postgres:// URL (unset it for the embedded SQLite database), got "mysql://kiln:***@localhost/kiln"'],
    ['an unknown KILN_TIER', { KILN_TIER: 'gold' }, 'KILN_TIER must be one of free, premium, ultimate, got "gold"'],
    ['KILN_STORAGES that is not JSON', { KILN_STORAGES: '{nope' }, 'KILN_STORAGES must be JSON like {"default":{"path":"/srv/kiln/default","weight":100}}, got "{nope"'],
    ['a KILN_STORAGES shard without a path', { KILN_STORAGES: '{"ssd":{"weight":5}}' }, 'KILN_STORAGES: shard "ssd" needs a "path" string, got null'],
    ['a relative KILN_BASE_URL', { KILN_BASE_URL: 'kiln.example.com' }, 'KILN_BASE_URL must be an absolute http(s) URL, got "kiln.example.com"'],
    ['an ftp KILN_BASE_URL', { KILN_BASE_URL: 'ftp://kiln.example.com' }, 'KILN_BASE_URL must use http or https, got "ftp://kiln.example.com"'],
    ['a bad KILN_JOB_LEASE_MS', { KILN_JOB_LEASE_MS: '5' }, 'KILN_JOB_LEASE_MS must be between 100 and 86400000, got 5'],
    ['a bad boolean', { KILN_RUN_WORKER: 'maybe' }, 'KILN_RUN_WORKER must be true or false, got "maybe"'],
    ['an unknown KILN_LOG_FORMAT', { KILN_LOG_FORMAT: 'xml' }, 'KILN_LOG_FORMAT must be one of auto, json, pretty, got "xml"'],
    ['a KILN_TRUSTED_PROXIES that is not an address', { KILN_TRUSTED_PROXIES: '10.0.0.0/24,proxy.local' }, 'KILN_TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas (like 127.0.0.0/8,::1), got "proxy.local"'],
    ['a short KILN_INITIAL_ROOT_PASSWORD (named, never echoed)', { KILN_INITIAL_ROOT_PASSWORD: 'hunter2' }, 'KILN_INITIAL_ROOT_PASSWORD must be at least 8 characters, got 7'],
  ];
  for (const [what, env, message] of cases) {
    it(`kiln serve with ${what}: one line naming it, exit code 2, no data dir created`, async () => {
      const dataDir = scratchDir();
      const result = await runKiln(['serve'], { KILN_DATA_DIR: dataDir, ...env });
      expectOneLineError(result, `kiln: configuration error: ${message}\n`);
      expect(result.stderr).not.toContain('hunter2');
      expect(existsSync(dataDir)).toBe(false);
    });
  }

  it('every other command reads the configuration the same way, before it writes', async () => {
    const dataDir = scratchDir();
    const calls = [['worker'], ['migrate'], ['admin', 'create-token', '--username', 'root'], ['admin', 'restore', dataDir]];
    const results = await Promise.all(calls.map((args) => runKiln(args, { KILN_DATA_DIR: dataDir, KILN_HOST: '999.1.1.1' })));
    for (const result of results) expectOneLineError(result, 'kiln: configuration error: KILN_HOST must be an IP address or a host name, got "999.1.1.1"\n');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a KILN_DATA_DIR that cannot be created (/proc/x) stops at once, naming the path', { timeout: 20_000 }, async () => {
    const started = Date.now();
    expectOneLineError(await runKiln(['serve'], { KILN_DATA_DIR: '/proc/x' }), 'kiln: configuration error: KILN_DATA_DIR /proc/x is not a writable directory');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a KILN_DATA_DIR below a regular file names the path and the reason', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kiln-cli-')), 'a-file');
    writeFileSync(file, '');
    for (const command of ['serve', 'worker', 'migrate']) {
      expectOneLineError(await runKiln([command], { KILN_DATA_DIR: join(file, 'data') }), `KILN_DATA_DIR ${join(file, 'data')} is not a writable directory (a parent is not a directory)`);
    }
  });

  it('a KILN_DATA_DIR on a read-only file system names the path', async () => {
    // Even root cannot create a file in /proc/self (root passes every permission check elsewhere).
    expectOneLineError(await runKiln(['migrate'], { KILN_DATA_DIR: '/proc/self' }), /KILN_DATA_DIR \/proc\/self is not a writable directory \(/);
  });

  it('a storage shard that cannot be created names KILN_STORAGES and the shard', async () => {
    const dataDir = scratchDir();
    const result = await runKiln(['serve'], { KILN_DATA_DIR: dataDir, KILN_PORT: '0', KILN_STORAGES: '{"default":{"path":"/proc/shard"}}' });
    expectOneLineError(result, 'kiln: configuration error: KILN_STORAGES (shard "default") /proc/shard is not a writable directory');
    expect(existsSync(join(dataDir, 'kiln.sqlite3'))).toBe(false);
  });

  describe('a port already in use', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      server = createServer();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('stops kiln serve with one line naming KILN_PORT, before the database or root is created', async () => {
      const dataDir = scratchDir();
      const result = await runKiln(['serve'], { KILN_DATA_DIR: dataDir, KILN_PORT: String(port) });
      expectOneLineError(result, `kiln: configuration error: KILN_PORT ${port} is already in use on KILN_HOST 127.0.0.1`);
      expect(existsSync(dataDir)).toBe(false);
    });
  });

  it('a KILN_HOST that is not an address of this machine is named', async () => {
    const result = await runKiln(['serve'], { KILN_DATA_DIR: scratchDir(), KILN_HOST: '192.0.2.1', KILN_PORT: '18999' });
    expectOneLineError(result, 'kiln: configuration error: KILN_HOST 192.0.2.1 is not an address of this machine');
  });

  it('a PostgreSQL server that refuses connections is named by KILN_DATABASE_URL, without its password', async () => {
    const port = await freePort();
    const result = await runKiln(['migrate'], { KILN_DATA_DIR: scratchDir(), KILN_DATABASE_URL: `postgres://kiln:hunter2@127.0.0.1:${port}/kiln` });
    expectOneLineError(result, `kiln: configuration error: KILN_DATABASE_URL postgres://kiln:***@127.0.0.1:${port}/kiln refuses connections`);
    expect(result.stderr).not.toContain('hunter2');
  });
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

  const userCount = async () => Number((await sql<{ n: number }>`select count(*) as n from users`.execute(inspect.db)).rows[0].n);

  it('kiln migrate names the migrations it applied, then says none are pending', async () => {
    const first = await runKiln(['migrate'], env);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(inspect.db);
    expect(first.stdout).toBe(`applied ${rows.length} migrations:\n${rows.map((row) => `  ${row.name}\n`).join('')}`);
    expect(rows.map((row) => row.name)).toContain('20261122T0900-accounts');
    const second = await runKiln(['migrate'], env);
    expect(second).toEqual({ code: 0, stdout: 'no migrations pending: the database is up to date\n', stderr: '' });
  });

  it('kiln admin create-user reads the password from standard input', async () => {
    const { code, stdout, stderr } = await runKilnWithInput(['admin', 'create-user', '--username', 'ops', '--email', 'ops@example.com', '--name', 'Ops Person'], env, 'ops-password-1\n');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^created user ops \(id \d+\)$/m);
    const user = await inspect.db.selectFrom('users').selectAll().where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: 'Ops Person', email: 'ops@example.com', admin: 0 });
    expect(await verifyPassword(user.password_hash, 'ops-password-1')).toBe(true);
  });

  it('kiln admin create-user and reset-password refuse --password, before anything is written', async () => {
    const users = await userCount();
    expectOneLineError(
      await runKilnWithInput(['admin', 'create-user', '--username', 'argv', '--email', 'argv@example.com', '--password', 'argv-password-1'], env),
      'kiln: admin create-user: --password is not accepted: the command line is kept in shell history and shown by ps',
    );
    const reset = await runKilnWithInput(['admin', 'reset-password', '--username', 'ops', '--password', 'argv-password-1'], env);
    expectOneLineError(reset, 'kiln: admin reset-password: --password is not accepted');
    expect(reset.stderr).not.toContain('argv-password-1');
    expect(await userCount()).toBe(users);
    const ops = await inspect.db.selectFrom('users').select('password_hash').where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(await verifyPassword(ops.password_hash, 'ops-password-1')).toBe(true);
  });

  it('kiln admin create-token prints a token that is stored as its digest with the given scopes', async () => {
    const { code, stdout } = await runKiln(['admin', 'create-token', '--username', 'ops', '--scopes', 'read_api,read_user', '--name', 'automation'], env);
    expect(code).toBe(0);
    const token = stdout.trim();
    expect(token).toMatch(/^glpat-\S+$/);
    const row = await inspect.db.selectFrom('personal_access_tokens').selectAll().where('token_digest', '=', sha256Hex(token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'automation', scopes: 'read_api read_user', revoked: 0, expires_at: null });
  });

  it('kiln admin create-token --expires-at takes a real date from today on, as the API does', async () => {
    const { code, stdout } = await runKiln(['admin', 'create-token', '--username', 'ops', '--expires-at', '2099-12-31'], env);
    expect(code).toBe(0);
    const row = await inspect.db.selectFrom('personal_access_tokens').selectAll().where('token_digest', '=', sha256Hex(stdout.trim())).executeTakeFirstOrThrow();
    expect(row.expires_at).toBe('2099-12-31');
  });

  for (const [value, message] of [
    ['tomorrow', '--expires-at must be a date written YYYY-MM-DD, got "tomorrow"'],
    ['2099-13-45', '--expires-at must be a date written YYYY-MM-DD, got "2099-13-45"'],
    ['2099-02-30', '--expires-at must be a date written YYYY-MM-DD, got "2099-02-30"'],
    ['2020-01-01', '--expires-at must be today or later'],
  ]) {
    it(`kiln admin create-token --expires-at ${value}: one line, exit 2, no token created`, async () => {
      const before = Number((await sql<{ n: number }>`select count(*) as n from personal_access_tokens`.execute(inspect.db)).rows[0].n);
      expectOneLineError(await runKiln(['admin', 'create-token', '--username', 'ops', '--expires-at', value], env), `kiln: admin create-token: ${message}`);
      const after = Number((await sql<{ n: number }>`select count(*) as n from personal_access_tokens`.execute(inspect.db)).rows[0].n);
      expect(after).toBe(before);
    });
  }

  it('kiln admin reset-password reads the new password from standard input', async () => {
    const { code, stdout, stderr } = await runKilnWithInput(['admin', 'reset-password', '--username', 'ops'], env, 'brand-new-password\n');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('password of ops reset');
    const user = await inspect.db.selectFrom('users').select('password_hash').where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, 'brand-new-password')).toBe(true);
    expect(await verifyPassword(user.password_hash, 'ops-password-1')).toBe(false);
  });

  it('kiln admin reset-password at a terminal asks twice without echoing the password', { timeout: 30_000 }, async () => {
    // script(1) gives the command a pseudo-terminal; the password is typed on it.
    const command = [process.execPath, MAIN, 'admin', 'reset-password', '--username', 'ops'].join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { PATH: process.env.PATH, HOME: tmpdir(), KILN_LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 20_000;
      while (!output.includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await waitFor('Password: ');
    child.stdin.write('typed-password-1\r');
    await waitFor('Password again: ');
    child.stdin.write('typed-password-1\r');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('password of ops reset');
    expect(output).not.toContain('typed-password-1');
    const user = await inspect.db.selectFrom('users').select('password_hash').where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, 'typed-password-1')).toBe(true);
    const back = await runKilnWithInput(['admin', 'reset-password', '--username', 'ops'], env, 'brand-new-password\n');
    expect(back.code).toBe(0);
  });

  it('kiln admin reset-password refuses a short password and empty input, and keeps the old one', async () => {
    expectOneLineError(await runKilnWithInput(['admin', 'reset-password', '--username', 'ops'], env, 'short\n'), 'kiln: admin reset-password: the password is too short (minimum is 8 characters)');
    expectOneLineError(await runKilnWithInput(['admin', 'reset-password', '--username', 'ops'], env, ''), 'kiln: admin reset-password: no password on standard input');
    const user = await inspect.db.selectFrom('users').select('password_hash').where('username', '=', 'ops').executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, 'brand-new-password')).toBe(true);
  });

  // Eight processes one after another: seconds each on a loaded machine.
  it('usage mistakes are one line naming the flag, exit code 2', { timeout: 60_000 }, async () => {
    expectOneLineError(await runKilnWithInput(['admin', 'create-user', '--username', 'x'], env, 'password-123\n'), 'kiln: admin create-user: --email is required');
    expectOneLineError(await runKiln(['admin', 'create-token', '--username', 'ops', '--bogus'], env), 'kiln: admin create-token: unknown option --bogus');
    expectOneLineError(await runKiln(['admin', 'create-token', '--username'], env), 'kiln: admin create-token: --username needs a value');
    expectOneLineError(await runKiln(['admin', 'create-token', '--username', 'ops', '--scopes', 'api,everything'], env), 'kiln: admin create-token: --scopes "api,everything": everything is not a scope');
    expectOneLineError(await runKiln(['admin', 'create-token', '--username', 'ghost'], env), 'kiln: admin create-token: --username "ghost": no such user');
    expectOneLineError(await runKiln(['admin'], env), 'kiln: admin needs a command: create-user, create-token, reset-password, backup, restore');
    expectOneLineError(await runKiln(['admin', 'explode'], env), 'kiln: unknown admin command "explode"');
    expectOneLineError(await runKiln(['admin', 'backup'], env), 'kiln: admin backup: needs the DIR argument');
  });

  it('a validation failure names the flag, without a stack trace, and writes nothing', async () => {
    const users = await userCount();
    const email = await runKilnWithInput(['admin', 'create-user', '--username', 'weak', '--email', 'not-an-email'], env, 'long-enough-1\n');
    expectOneLineError(email, 'kiln: admin create-user: --email is invalid');
    const password = await runKilnWithInput(['admin', 'create-user', '--username', 'weak', '--email', 'weak@example.com'], env, 'short\n');
    expectOneLineError(password, 'kiln: admin create-user: the password is too short (minimum is 8 characters)');
    expect(password.stderr).not.toMatch(/\n\s+at /);
    expect(await userCount()).toBe(users);
  });
});

describe('two nodes running kiln migrate at once', () => {
  it('all succeed, every migration is applied exactly once, and each is named by exactly one node', { timeout: 60_000 }, async () => {
    const testDb = await createTestDatabase();
    try {
      const env = { KILN_DATA_DIR: testDb.dataDir, ...childDatabaseEnv(testDb) };
      const results = await Promise.all([runKiln(['migrate'], env), runKiln(['migrate'], env), runKiln(['migrate'], env)]);
      expect(results.map((result) => [result.code, result.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
      const { rows } = await sql<{ name: string; n: number }>`select name, count(*) as n from kysely_migration group by name`.execute(testDb.database.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
      const named = results.flatMap((result) => result.stdout.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim()));
      expect(named.sort()).toEqual(rows.map((row) => row.name).sort());
    } finally {
      await testDb.database.close();
      await testDb.drop();
    }
  });
});

onceOnly('first start of kiln serve on an empty data dir', () => {
  it('creates the secrets file and initial_root_password with mode 0600, says in words where to sign in and where the password is', { timeout: 60_000 }, async () => {
    const dataDir = scratchDir();
    const kiln = await startKilnProcess({ dataDir, env: { KILN_INITIAL_ROOT_PASSWORD: '', KILN_LOG_LEVEL: 'info' } });
    try {
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      const passwordFile = join(dataDir, 'initial_root_password');
      expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
      const password = readFileSync(passwordFile, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(16);
      await kiln.waitForOutput(/is ready/);
      expect(kiln.output()).not.toContain(password);
      // Not a terminal: JSON lines, the banner one of them.
      const lines = kiln.output().trim().split('\n').map((line) => JSON.parse(line));
      const banner = lines.find((line) => /is ready/.test(line.msg));
      expect(banner).toMatchObject({
        msg: `Kiln ${KILN_VERSION} is ready at ${kiln.url} (GitLab 14.3.0 API). Sign in at ${kiln.url}/users/sign_in as root with the password in ${passwordFile}, then change it and delete that file.`,
        url: kiln.url,
        initial_root_password: passwordFile,
      });
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

  it('KILN_LOG_FORMAT=pretty prints log lines (pino-pretty) and the banner for people', { timeout: 60_000 }, async () => {
    const kiln = await startKilnProcess({ env: { KILN_INITIAL_ROOT_PASSWORD: '', KILN_LOG_LEVEL: 'info', KILN_LOG_FORMAT: 'pretty' } });
    try {
      const output = await kiln.waitForOutput(/Sign in at/);
      // Not a terminal: no colours.
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: created the root administrator; its password is in this file \{"path":"\S+initial_root_password"\}$/m);
      expect(output).toContain(`  Sign in at ${kiln.url}/users/sign_in as root with the password in ${join(kiln.dataDir, 'initial_root_password')}`);
      expect(output).not.toMatch(/^\{/m);
    } finally {
      await kiln.stop();
    }
  });

  it('on a terminal (KILN_LOG_FORMAT unset) the logs (pino-pretty, in colour) and the banner are for people', { timeout: 60_000 }, async () => {
    const dataDir = scratchDir();
    const port = await freePort();
    // script(1) gives the process a pseudo-terminal as its standard output.
    const child = spawn('script', ['-qfec', `${process.execPath} ${MAIN} serve`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: tmpdir(), TERM: 'xterm-256color', KILN_DATA_DIR: dataDir, KILN_PORT: String(port), KILN_INITIAL_ROOT_PASSWORD: 'root-password-1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      const deadline = Date.now() + 30_000;
      while (!output.includes('Ctrl-C stops Kiln') && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toContain(`Kiln ${KILN_VERSION} is ready at http://127.0.0.1:${port}`);
      expect(output).toContain(`Sign in at http://127.0.0.1:${port}/users/sign_in as root with the password of KILN_INITIAL_ROOT_PASSWORD.`);
      const escape = String.fromCharCode(27); // colour codes start with ESC [
      expect(output).toContain(`${escape}[`);
      expect(output.split(new RegExp(`${escape}\\[[\\d;]*m`)).join('')).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at/);
      expect(output).not.toContain('{"level"');
    } finally {
      child.stdin.write('\u0003'); // Ctrl-C on the terminal: SIGINT to Kiln, which stops gracefully
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      rmSync(dataDir, { recursive: true, force: true });
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
