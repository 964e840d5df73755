// Health probes, Prometheus metrics, request ids, JSON logs without secrets, avatars.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { testKiln, testSecrets, BASE_URL, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createTestDatabase } from '../helpers/database.js';
import { loadConfig } from '../../src/config.js';
import { startKiln } from '../../src/bootstrap.js';
import { createLogger } from '../../src/platform/logger.js';
import { createUser } from '../../src/accounts/create-user.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { enqueue } from '../../src/platform/jobs/queue.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

describe('GET /-/health', () => {
  it('answers 200 "GitLab OK" without authentication', async () => {
    const response = await kiln.request('GET', '/-/health');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('GitLab OK');
  });
});

describe('GET /-/liveness', () => {
  it('answers 200 {"status":"ok"}', async () => {
    const response = await kiln.request('GET', '/-/liveness');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok' });
  });
});

describe('GET /-/readiness', () => {
  it('answers 200 with db_check ok while the database answers', async () => {
    const response = await kiln.request('GET', '/-/readiness');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'ok', db_check: [{ status: 'ok' }] });
  });

  it('answers 503 when the database is unreachable', async () => {
    const broken = await testKiln();
    try {
      await broken.deps.db.destroy();
      const response = await broken.request('GET', '/-/readiness');
      expect(response.statusCode).toBe(503);
      expect(JSON.parse(response.body)).toMatchObject({ status: 'failed', db_check: [{ status: 'failed' }] });
      expect((await broken.request('GET', '/-/liveness')).statusCode).toBe(200);
    } finally {
      await broken.close().catch(() => broken.testDb.drop());
    }
  });
});

describe('GET /-/metrics', () => {
  const metricsFrom = (remoteAddress: string, app = kiln.app) => app.inject({ method: 'GET', url: '/-/metrics', remoteAddress });

  describe('from an address outside the monitoring allow-list', () => {
    it.each(['10.1.2.3', '192.168.0.10', '8.8.8.8', '::ffff:10.1.2.3', '2001:db8::1', 'fe80::1'])('answers 404 to %s, as GitLab does', async (address) => {
      const response = await metricsFrom(address);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('http_request_duration_seconds');
    });
  });

  describe('from the default allow-list (loopback)', () => {
    it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('answers 200 to %s', async (address) => {
      expect((await metricsFrom(address)).statusCode).toBe(200);
    });
  });

  describe('with KILN_MONITORING_ALLOWLIST=10.0.0.0/8,2001:db8::/32', () => {
    it('answers the listed ranges only', async () => {
      const listed = await testKiln({ monitoringAllowlist: ['10.0.0.0/8', '2001:db8::/32'] });
      try {
        expect((await metricsFrom('10.1.2.3', listed.app)).statusCode).toBe(200);
        expect((await metricsFrom('::ffff:10.1.2.3', listed.app)).statusCode).toBe(200);
        expect((await metricsFrom('2001:db8::1', listed.app)).statusCode).toBe(200);
        expect((await metricsFrom('127.0.0.1', listed.app)).statusCode).toBe(404);
        expect((await metricsFrom('11.0.0.1', listed.app)).statusCode).toBe(404);
      } finally {
        await listed.close();
      }
    });
  });

  it('exposes request durations per route template and job outcomes in Prometheus text', async () => {
    const project = await kiln.createProject(alice, 'measured');
    await kiln.api('GET', `/projects/${project.id}`, { token: alice.token });
    await kiln.api('GET', '/projects/999999', { token: alice.token });
    await enqueue(kiln.deps.db, kiln.clock, 'platform.housekeeping', {});
    await kiln.worker.drain();
    const response = await kiln.request('GET', '/-/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toContain('# TYPE kiln_http_request_duration_seconds histogram');
    expect(text).toMatch(/kiln_http_request_duration_seconds_count\{method="GET",route="\/api\/v4\/projects\/:id",status="200"\} [1-9]/);
    expect(text).toMatch(/kiln_http_request_duration_seconds_count\{method="GET",route="\/api\/v4\/projects\/:id",status="404"\} 1/);
    expect(text).toContain('kiln_jobs_total{kind="platform.housekeeping",outcome="done"} 1');
    expect(text).not.toMatch(/route="[^"]*999999/);
  });
});

describe('request ids', () => {
  it('every response carries X-Request-Id; a caller\'s id is kept', async () => {
    const fresh = await kiln.request('GET', '/api/v4/user', { token: alice.token });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await kiln.request('GET', '/api/v4/user', { token: alice.token, headers: { 'x-request-id': 'trace-abc-123' } });
    expect(given.headers['x-request-id']).toBe('trace-abc-123');
  });
});

describe('logs', () => {
  it('are JSON lines with request ids, and never contain tokens, Authorization, PRIVATE-TOKEN or access_token values', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
    const testDb = await createTestDatabase();
    const config = { ...loadConfig({ KILN_DATA_DIR: testDb.dataDir, KILN_BASE_URL: BASE_URL, KILN_LOG_LEVEL: 'debug' }), initialRootPassword: 'root-password-1' };
    const logged = await startKiln(config, { database: testDb.database, secrets: testSecrets(), log: createLogger('debug', sink) });
    try {
      const user = await createUser(logged.deps, { username: 'logger', name: 'L', email: 'l@example.com', password: 'logger-password' });
      const { token } = await createPersonalAccessToken(logged.deps, { userId: user.id, name: 'log', scopes: ['api'] });
      const secretLooking = 'glpat-not-a-real-token-but-secret';
      const calls = [
        { url: '/api/v4/user', headers: { 'private-token': token } },
        { url: '/api/v4/user', headers: { authorization: `Bearer ${token}` } },
        { url: `/api/v4/user?access_token=${token}` },
        { url: `/api/v4/user?private_token=${secretLooking}` },
        { url: `/api/v4/projects?access_token=${secretLooking}&per_page=2` },
        { url: '/api/v4/user', headers: { authorization: `Bearer ${secretLooking}`, cookie: '_kiln_session=cookie-secret' } },
      ];
      const ids: string[] = [];
      for (const call of calls) {
        const response = await logged.app.inject({ method: 'GET', ...call, headers: { 'x-request-id': `req-${ids.length}`, ...(call.headers ?? {}) } });
        ids.push(String(response.headers['x-request-id']));
      }
      await logged.app.inject({ method: 'POST', url: '/api/v4/projects', headers: { 'private-token': token, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x', password: 'body-password' }) });
      const text = lines.join('\n');
      expect(lines.length).toBeGreaterThan(calls.length);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      for (const id of ids) expect(text).toContain(`"reqId":"${id}"`);
      expect(text).toContain('access_token=[REDACTED]');
      for (const secret of [token, secretLooking, 'cookie-secret', 'body-password']) expect(text).not.toContain(secret);
      expect(text.toLowerCase()).not.toContain('"authorization"');
      expect(text.toLowerCase()).not.toContain('"private-token"');
    } finally {
      await logged.close();
      await testDb.drop();
    }
  });
});

describe('GET /-/avatars/:username.svg', () => {
  it('answers a small SVG with the user\'s initial, cacheable, no third-party assets', async () => {
    const response = await kiln.request('GET', '/-/avatars/alice.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['cache-control']).toContain('max-age');
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*>U<\/text><\/svg>$/);
    expect(response.body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('escapes the initial', async () => {
    await createUser(kiln.deps, { username: 'angle', name: '<b>old', email: 'angle@example.com' });
    const response = await kiln.request('GET', '/-/avatars/ANGLE.svg');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('>&#60;</text>');
  });

  it('answers 404 for an unknown user or a name without .svg', async () => {
    expect((await kiln.request('GET', '/-/avatars/nobody.svg')).statusCode).toBe(404);
    expect((await kiln.request('GET', '/-/avatars/alice.png')).statusCode).toBe(404);
  });

  it('is where user entities point', async () => {
    const { body } = await kiln.api('GET', '/user', { token: alice.token });
    const path = new URL(body.avatar_url).pathname;
    expect((await kiln.request('GET', path)).statusCode).toBe(200);
  });
});
