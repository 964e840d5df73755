// Tokens sent in the query string never reach the log, whatever the spelling of the parameter
// (issue 13, item 6): every request is logged at debug level here and the output is searched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { createLogger } from '../../src/platform/logger.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createUser } from '../../src/accounts/create-user.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { BASE_URL, testSecrets } from '../helpers/kiln.js';

let kiln: Kiln;
let testDb: TestDatabase;
let token: string;
const output: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const config = { ...loadConfig({ KILN_DATA_DIR: testDb.dataDir, KILN_BASE_URL: BASE_URL, KILN_LOG_LEVEL: 'debug' }), initialRootPassword: 'root-password-1' };
  const sink = new Writable({ write: (chunk, _encoding, done) => done(void output.push(String(chunk))) });
  kiln = await startKiln(config, { clock: new ManualClock(Date.parse('2026-11-22T08:00:00.000Z')), log: createLogger('debug', sink), database: testDb.database, secrets: testSecrets() });
  const user = await createUser(kiln.deps, { username: 'dora', name: 'Dora', email: 'dora@example.com', password: 'password-dora-1' });
  token = (await createPersonalAccessToken(kiln.deps, { userId: user.id, name: 'logged', scopes: ['api'] })).token;
});
afterAll(async () => {
  await kiln.close();
  await testDb.drop();
});

describe('GET /api/v4/user with a token in the query string', () => {
  it.each(['private_token', 'private%5Ftoken', 'private%5ftoken', 'access%5Ftoken', '%70rivate_token', 'PRIVATE_TOKEN', 'private_token[]', 'access_token'])(
    'never writes the token to the log (%s)',
    async (name) => {
      output.length = 0;
      const response = await kiln.app.inject({ method: 'GET', url: `/api/v4/user?${name}=${token}&per_page=3` });
      // The spellings the server reads as a credential sign in; the others do not: neither is logged.
      expect([200, 401]).toContain(response.statusCode);
      await new Promise((resolve) => setImmediate(resolve));
      const log = output.join('');
      expect(log).toContain('/api/v4/user?');
      expect(log).not.toContain(token);
    },
  );

  it('is signed in by private%5Ftoken (so the spelling matters)', async () => {
    const response = await kiln.app.inject({ method: 'GET', url: `/api/v4/user?private%5Ftoken=${token}` });
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /:full_path/alerts/notify.json (a bare route) with a token in the query string', () => {
  it('never writes it to the log', async () => {
    output.length = 0;
    await kiln.app.inject({ method: 'POST', url: `/dora/none/alerts/notify.json?private%5Ftoken=${token}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.join('')).toContain('alerts/notify.json?');
    expect(output.join('')).not.toContain(token);
  });
});
