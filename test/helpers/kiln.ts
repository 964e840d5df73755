// A freshly started Kiln on its own database, driven through app.inject, with helpers that create
// users with tokens, groups and projects in one line each.
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { ManualClock } from '../../src/platform/clock.js';
import { generateSecrets, type InstanceSecrets } from '../../src/platform/secrets.js';
import { createUser } from '../../src/accounts/create-user.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import type { Feature } from '../../src/platform/feature.js';

let cachedSecrets: InstanceSecrets | null = null;
const SSH_FIXTURES = new URL('../fixtures/ssh/', import.meta.url);
export function testSecrets(): InstanceSecrets {
  cachedSecrets ??= {
    ...generateSecrets(),
    // Fixed host keys (test/fixtures/ssh): an RSA 3072 key takes seconds to generate.
    sshHostKeys: { ed25519: readFileSync(new URL('ssh_host_ed25519_key', SSH_FIXTURES), 'utf8'), rsa: readFileSync(new URL('ssh_host_rsa_key', SSH_FIXTURES), 'utf8') },
  };
  return cachedSecrets;
}

export const BASE_URL = 'http://kiln.test';

export interface TestUser {
  id: number;
  username: string;
  token: string;
  password: string;
}

export interface InjectOptions {
  token?: string;
  body?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

export interface TestKiln extends Kiln {
  clock: ManualClock;
  testDb: TestDatabase;
  config: Config;
  root: TestUser;
  createUser(username: string, options?: { admin?: boolean; scopes?: string[]; password?: string }): Promise<TestUser>;
  request(method: string, url: string, options?: InjectOptions): Promise<import('light-my-request').Response>;
  /** JSON API helpers that assert nothing themselves. */
  api(method: string, path: string, options?: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, any> }>;
  /** A request as `user` that must succeed (a 2xx): its body, or an error naming the status and body. */
  apiAs(user: TestUser, method: string, path: string, body?: unknown): Promise<any>;
  createGroup(owner: TestUser, path: string, options?: { visibility?: string; parent_id?: number }): Promise<any>;
  createProject(owner: TestUser, path: string, options?: { visibility?: string; namespace_id?: number }): Promise<any>;
  addMember(actor: TestUser, kind: 'groups' | 'projects', id: number, user: TestUser, accessLevel: number): Promise<void>;
}

export async function testKiln(overrides: Partial<Config> = {}, options: { features?: Feature[] } = {}): Promise<TestKiln> {
  // The database is opened here, not by startKiln: it takes the config's read cache setting from here.
  const testDb = await createTestDatabase({ readCache: overrides.readCache, migrated: true });
  const config: Config = {
    ...loadConfig({ KILN_DATA_DIR: testDb.dataDir, KILN_BASE_URL: BASE_URL, KILN_LOG_LEVEL: 'silent' }),
    initialRootPassword: 'root-password-1',
    // Tests sign in many times a minute from one address; rate-limit tests set GitLab's 10 explicitly.
    protectedPathsPerMinute: 1_000_000,
    ...overrides,
  };
  const clock = new ManualClock(Date.parse('2026-11-22T08:00:00.000Z'));
  const kiln = await startKiln(config, { clock, log: pino({ level: process.env.KILN_TEST_LOG ?? 'silent' }), database: testDb.database, secrets: testSecrets(), features: options.features });
  const deps = kiln.deps;

  const request: TestKiln['request'] = (method, url, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers['private-token'] = options.token;
    let payload: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }
    const query = options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) : undefined;
    return kiln.app.inject({ method: method as 'GET', url, headers, payload, query });
  };

  const api: TestKiln['api'] = async (method, path, options = {}) => {
    const response = await request(method, `/api/v4${path}`, options);
    let body: unknown = response.body;
    try {
      body = response.body === '' ? null : JSON.parse(response.body);
    } catch {
      /* leave non-JSON bodies as text */
    }
    return { status: response.statusCode, body, headers: response.headers };
  };

  let counter = 0;
  const makeUser: TestKiln['createUser'] = async (username, options = {}) => {
    counter += 1;
    const password = options.password ?? `password-${username}-1`;
    const user = await createUser(deps, { username, name: `User ${username}`, email: `${username}@example.com`, password, admin: options.admin });
    const { token } = await createPersonalAccessToken(deps, { userId: user.id, name: `test ${counter}`, scopes: options.scopes ?? ['api'] });
    return { id: Number(user.id), username, token, password };
  };

  const rootRow = await deps.db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
  const { token: rootToken } = await createPersonalAccessToken(deps, { userId: rootRow.id, name: 'root test', scopes: ['api', 'sudo'] });
  const root: TestUser = { id: Number(rootRow.id), username: 'root', token: rootToken, password: 'root-password-1' };

  async function created(result: { status: number; body: any }, what: string) {
    if (result.status !== 201) throw new Error(`creating ${what} failed: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  }

  return {
    ...kiln,
    clock,
    testDb,
    config,
    root,
    request,
    api,
    apiAs: async (user, method, path, body) => {
      const result = await api(method, path, { token: user.token, body });
      if (result.status < 200 || result.status >= 300) throw new Error(`${method} ${path} as ${user.username}: ${result.status} ${JSON.stringify(result.body)}`);
      return result.body;
    },
    createUser: makeUser,
    createGroup: async (owner, path, options = {}) => created(await api('POST', '/groups', { token: owner.token, body: { name: path, path, ...options } }), `group ${path}`),
    createProject: async (owner, path, options = {}) => created(await api('POST', '/projects', { token: owner.token, body: { name: path, path, ...options } }), `project ${path}`),
    addMember: async (actor, kind, id, user, accessLevel) => {
      await created(await api('POST', `/${kind}/${id}/members`, { token: actor.token, body: { user_id: user.id, access_level: accessLevel } }), `member ${user.username}`);
    },
    async close() {
      await kiln.close();
      await testDb.drop();
    },
  };
}
