// /admin/background_jobs (issue 36): administrators see the jobs table by state with each failure's
// error (as text), retry a dead job and discard a dead or queued one; nobody else gets the page, and
// the forms are CSRF-checked. The jobs here are of a kind no worker handles, so none is claimed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let user: TestUser;
let admin: WebSession;
const ids: Record<string, number> = {};
const XSS = '<img src=x onerror=alert(1)>';

async function job(name: string, state: 'queued' | 'dead', lastError: string | null) {
  const now = kiln.deps.clock.now();
  const row = await kiln.deps.db.insertInto('jobs').values({ kind: `probe-${name}`, payload: '{}', state, run_at: now, attempts: state === 'dead' ? 5 : 1, max_attempts: 5, last_error: lastError, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  ids[name] = Number(row.id);
}

async function stateOf(name: string) {
  return (await kiln.deps.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', ids[name]!).executeTakeFirst()) ?? null;
}

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('lena');
  await job('waiting', 'queued', 'connect ECONNREFUSED 127.0.0.1:9');
  await job('broken', 'dead', `TypeError: ${XSS}`);
  await job('doomed', 'dead', 'gone');
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});
afterAll(() => kiln.close());

describe('GET /admin/background_jobs', () => {
  it('lists queued jobs with their last error and dead ones on their tab, errors as text', async () => {
    const queued = await admin.get('/admin/background_jobs');
    expect(queued.statusCode).toBe(200);
    expect(queued.body).toContain('probe-waiting');
    expect(queued.body).toContain('connect ECONNREFUSED 127.0.0.1:9');
    expect(queued.body).not.toContain('probe-broken');
    expect(queued.body).toMatch(/data-tab="dead"[^>]*>Dead <span class="badge">2<\/span>/);
    const dead = await admin.get('/admin/background_jobs?state=dead');
    expect(dead.body).toContain('probe-broken');
    expect(dead.body).toContain('TypeError: &lt;img src=x onerror=alert(1)&gt;');
    expect(dead.body).not.toContain('<img src=x');
    expect(dead.body).toContain(`action="/admin/background_jobs/${ids.broken}/retry"`);
    expect((await admin.get('/admin')).body).toContain('href="/admin/background_jobs"');
  });

  it('is refused to other users (404) and sends anonymous visitors to sign in', async () => {
    const other = new WebSession(kiln);
    await other.signIn('lena', user.password);
    expect((await other.get('/admin/background_jobs')).statusCode).toBe(404);
    expect((await kiln.request('GET', '/admin/background_jobs')).statusCode).toBe(302);
    expect((await other.post(`/admin/background_jobs/${ids.doomed}/discard`, { state: 'dead' }, { csrfFrom: '/' })).statusCode).toBe(404);
    expect(await stateOf('doomed')).toMatchObject({ state: 'dead' });
  });
});

describe('POST /admin/background_jobs/:id/(retry|discard)', () => {
  it('queues a dead job again with its attempts reset, once', async () => {
    const retried = await admin.post(`/admin/background_jobs/${ids.broken}/retry`, { state: 'dead' }, { csrfFrom: '/admin/background_jobs?state=dead' });
    expect(retried.statusCode).toBe(303);
    expect(retried.headers.location).toBe('/admin/background_jobs?state=dead');
    expect(await stateOf('broken')).toEqual({ state: 'queued', attempts: 0 });
    expect((await admin.get('/admin/background_jobs?state=dead')).body).toContain(`Job #${ids.broken} queued again.`);
    await admin.post(`/admin/background_jobs/${ids.broken}/retry`, { state: 'dead' }, { csrfFrom: '/admin/background_jobs' });
    expect((await admin.get('/admin/background_jobs?state=dead')).body).toContain(`Job #${ids.broken} was not changed: it is running, done or gone.`);
  });

  it('discards dead and queued jobs, refuses a forged form (422)', async () => {
    expect((await admin.post(`/admin/background_jobs/${ids.doomed}/discard`, { state: 'dead', authenticity_token: 'forged' })).statusCode).toBe(422);
    expect(await stateOf('doomed')).toMatchObject({ state: 'dead' });
    expect((await admin.post(`/admin/background_jobs/${ids.doomed}/discard`, { state: 'dead' }, { csrfFrom: '/admin/background_jobs' })).statusCode).toBe(303);
    expect((await admin.post(`/admin/background_jobs/${ids.waiting}/discard`, { state: 'queued' }, { csrfFrom: '/admin/background_jobs' })).statusCode).toBe(303);
    expect([await stateOf('doomed'), await stateOf('waiting')]).toEqual([null, null]);
  });
});
