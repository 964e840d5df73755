// The user and IP rate limits (issue 36): GitLab's throttle_* application settings, stored through
// PUT /application/settings and the admin area's Network page, applied by the route and page kits
// (per user when authenticated, per address otherwise) and answered as Rack::Attack answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('throttled-alice');
  bob = await kiln.createUser('throttled-bob');
});
afterAll(() => kiln.close());

const put = (body: Record<string, unknown>) => kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });

describe('throttle settings', () => {
  it('are GitLab’s, off by default, the protected paths default from the configuration', async () => {
    const { body } = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
    expect(body).toMatchObject({
      throttle_unauthenticated_api_enabled: false, throttle_unauthenticated_api_requests_per_period: 3600, throttle_unauthenticated_api_period_in_seconds: 3600,
      throttle_unauthenticated_web_enabled: false, throttle_unauthenticated_web_requests_per_period: 3600, throttle_unauthenticated_web_period_in_seconds: 3600,
      throttle_authenticated_api_enabled: false, throttle_authenticated_api_requests_per_period: 7200, throttle_authenticated_api_period_in_seconds: 3600,
      throttle_authenticated_web_enabled: false, throttle_authenticated_web_requests_per_period: 7200, throttle_authenticated_web_period_in_seconds: 3600,
      throttle_protected_paths_enabled: true, throttle_protected_paths_requests_per_period: kiln.config.protectedPathsPerMinute, throttle_protected_paths_period_in_seconds: 60,
    });
  });

  it('refuse a period or a limit below 1 and a non-integer, naming the setting', async () => {
    const zero = await put({ throttle_authenticated_api_requests_per_period: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toEqual({ throttle_authenticated_api_requests_per_period: ['must be greater than 0'] });
    const word = await put({ throttle_authenticated_web_period_in_seconds: 'soon' });
    expect(word.status).toBe(400);
    expect(word.body.error).toBe('throttle_authenticated_web_period_in_seconds is invalid');
  });

  it('take the legacy unauthenticated names for the web throttle', async () => {
    const saved = await put({ throttle_unauthenticated_enabled: false, throttle_unauthenticated_requests_per_period: 123, throttle_unauthenticated_period_in_seconds: 45 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ throttle_unauthenticated_web_enabled: false, throttle_unauthenticated_web_requests_per_period: 123, throttle_unauthenticated_web_period_in_seconds: 45 });
  });
});

describe('the authenticated API throttle', () => {
  it('answers 429 past the limit, per user, with Retry-After and the RateLimit headers, until the window ends', async () => {
    expect((await put({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 3, throttle_authenticated_api_period_in_seconds: 60 })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await kiln.api('GET', '/user', { token: alice.token })).status).toBe(200);
    const refused = await kiln.request('GET', '/api/v4/user', { token: alice.token });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('Retry later\n');
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.headers['ratelimit-name']).toBe('throttle_authenticated_api');
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(refused.headers['ratelimit-observed']).toBe('4');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(refused.headers['ratelimit-reset']) * 1000).toBeGreaterThan(kiln.clock.now());
    // Another user has a count of their own; anonymous requests are not this throttle's.
    expect((await kiln.api('GET', '/user', { token: bob.token })).status).toBe(200);
    expect((await kiln.api('GET', '/projects')).status).toBe(200);
    kiln.clock.advance(retryAfter * 1000);
    expect((await kiln.api('GET', '/user', { token: alice.token })).status).toBe(200);
  });

  it('stops counting once disabled', async () => {
    expect((await put({ throttle_authenticated_api_enabled: false })).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await kiln.api('GET', '/user', { token: alice.token })).status).toBe(200);
  });
});

describe('the unauthenticated throttles', () => {
  it('count API requests without credentials per address', async () => {
    expect((await put({ throttle_unauthenticated_api_enabled: true, throttle_unauthenticated_api_requests_per_period: 2, throttle_unauthenticated_api_period_in_seconds: 60 })).status).toBe(200);
    expect((await kiln.api('GET', '/projects')).status).toBe(200);
    expect((await kiln.api('GET', '/projects')).status).toBe(200);
    const refused = await kiln.request('GET', '/api/v4/projects');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['ratelimit-name']).toBe('throttle_unauthenticated_api');
    // Another address has its own count; an authenticated caller is not counted here.
    expect((await kiln.app.inject({ method: 'GET', url: '/api/v4/projects', remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
    expect((await kiln.api('GET', '/projects', { token: alice.token })).status).toBe(200);
    expect((await put({ throttle_unauthenticated_api_enabled: false })).status).toBe(200);
    expect((await kiln.api('GET', '/projects')).status).toBe(200);
  });

  it('count pages for anonymous visitors, and signed-in users under the authenticated web throttle', async () => {
    expect((await put({ throttle_unauthenticated_web_enabled: true, throttle_unauthenticated_web_requests_per_period: 2, throttle_unauthenticated_web_period_in_seconds: 60 })).status).toBe(200);
    expect((await kiln.request('GET', '/explore/projects')).statusCode).toBe(200);
    expect((await kiln.request('GET', '/explore/projects')).statusCode).toBe(200);
    const refused = await kiln.request('GET', '/explore/projects');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('Retry later\n');
    expect(refused.headers['ratelimit-name']).toBe('throttle_unauthenticated_web');
    // The API is another throttle's.
    expect((await kiln.api('GET', '/projects')).status).toBe(200);
    expect((await put({ throttle_unauthenticated_web_enabled: false, throttle_authenticated_web_enabled: true, throttle_authenticated_web_requests_per_period: 3 })).status).toBe(200);
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    let status = 200;
    for (let i = 0; i < 4 && status === 200; i += 1) status = (await web.get('/explore/projects')).statusCode;
    expect(status).toBe(429);
    expect((await put({ throttle_authenticated_web_enabled: false })).status).toBe(200);
    expect((await web.get('/explore/projects')).statusCode).toBe(200);
  });
});

describe('the protected paths throttle', () => {
  it('follows its settings, and is off when disabled', async () => {
    expect((await put({ throttle_protected_paths_requests_per_period: 2, throttle_protected_paths_period_in_seconds: 60 })).status).toBe(200);
    // A fresh window: the sign-ins above were counted too.
    kiln.clock.advance(60_000);
    const visitor = new WebSession(kiln);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await visitor.post('/users/sign_in', { login: alice.username, password: 'wrong-password' }, { csrfFrom: '/users/sign_in' })).statusCode);
    expect(statuses[2]).toBe(429);
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect((await put({ throttle_protected_paths_enabled: false })).status).toBe(200);
    expect((await visitor.post('/users/sign_in', { login: alice.username, password: 'wrong-password' }, { csrfFrom: '/users/sign_in' })).statusCode).not.toBe(429);
  });
});

describe('a protected path under both throttles', () => {
  it('counts an anonymous sign-in POST against the unauthenticated web throttle as well, as GitLab does', async () => {
    // GitLab's Rack::Attack rules (lib/gitlab/rack_attack/request.rb): throttle_unauthenticated_web?
    // takes every unauthenticated web request, protected paths included, and the protected-paths
    // throttle counts the POST too. The web throttle is checked first, so a refused request is not
    // counted by the second.
    kiln.clock.advance(60_000);
    expect((await put({
      throttle_protected_paths_enabled: true, throttle_protected_paths_requests_per_period: 10, throttle_protected_paths_period_in_seconds: 60,
      throttle_unauthenticated_web_enabled: true, throttle_unauthenticated_web_requests_per_period: 3, throttle_unauthenticated_web_period_in_seconds: 60,
    })).status).toBe(200);
    const counted = async (key: string) => Number((await kiln.deps.db.selectFrom('rate_limits').select('count').where('key', '=', key).executeTakeFirst())?.count ?? 0);
    const visitor = new WebSession(kiln);
    const authenticity_token = csrfTokenOf((await visitor.get('/users/sign_in')).body);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await visitor.post('/users/sign_in', { login: alice.username, password: 'wrong-password', authenticity_token })).statusCode);
    // The form's page and two sign-ins are the web throttle's three; the next sign-ins are refused by
    // it, before the protected-paths throttle (which counted the two it saw) is asked.
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(await counted('throttle_unauthenticated_web:ip:127.0.0.1')).toBe(5);
    expect(await counted('protected:sign_in:127.0.0.1')).toBe(2);
    expect((await put({ throttle_unauthenticated_web_enabled: false })).status).toBe(200);
  });
});

describe('the Network settings page', () => {
  it('edits the rate limits as the API does, and keeps a refused value with its error', async () => {
    const admin = new WebSession(kiln);
    await admin.signIn('root', 'root-password-1');
    const page = await admin.get('/admin/application_settings/network');
    expect(page.body).toContain('id="throttle_authenticated_api_enabled"');
    expect(page.body).toContain('Maximum authenticated API requests per rate limit period per user');
    const saved = await admin.post('/admin/application_settings/network', {
      section: 'rate_limits', throttle_authenticated_api_requests_per_period: '500', throttle_authenticated_api_period_in_seconds: '30',
      throttle_unauthenticated_api_requests_per_period: '3600', throttle_unauthenticated_api_period_in_seconds: '3600',
      throttle_unauthenticated_web_requests_per_period: '3600', throttle_unauthenticated_web_period_in_seconds: '3600',
      throttle_authenticated_web_requests_per_period: '7200', throttle_authenticated_web_period_in_seconds: '3600',
    });
    expect(saved.statusCode).toBe(303);
    const { body } = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
    expect(body).toMatchObject({ throttle_authenticated_api_enabled: false, throttle_authenticated_api_requests_per_period: 500, throttle_authenticated_api_period_in_seconds: 30 });
    const refused = await admin.post('/admin/application_settings/network', { section: 'protected_paths', throttle_protected_paths_enabled: '1', throttle_protected_paths_requests_per_period: '0', throttle_protected_paths_period_in_seconds: '60' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('id="throttle_protected_paths_requests_per_period-error"');
    expect(refused.body).toMatch(/id="throttle_protected_paths_requests_per_period" name="throttle_protected_paths_requests_per_period" value="0"/);
  });
});
