// X-Total of event listings is counted once and then advanced by the events added since (count-cache.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { recordEvent } from '../../src/platform/events/record-event.js';
import { COUNT_TTL_MS } from '../../src/events/count-cache.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let project: any;

const total = async (user: TestUser, path: string, query: Record<string, string> = {}) => (await kiln.api('GET', path, { token: user.token, query })).headers['x-total'];

async function addEvents(count: number, authorId = alice.id): Promise<void> {
  const now = kiln.clock.now();
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, () => ({ project_id: project.id, author_id: authorId, action: 'pushed', target_type: null, target_id: null, target_iid: null, target_title: null, push_data: null, created_at: now }));
    await kiln.deps.db.insertInto('events').values(rows).execute();
  }
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  project = await kiln.createProject(alice, 'counted', { visibility: 'public' });
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/events X-Total', () => {
  it('follows events recorded after the first count', async () => {
    expect(await total(alice, `/projects/${project.id}/events`)).toBe('1');
    await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: alice.id, action: 'updated', target: { type: 'Issue', id: 1, iid: 1, title: 't' } });
    expect(await total(alice, `/projects/${project.id}/events`)).toBe('2');
    expect(await total(alice, `/projects/${project.id}/events`, { action: 'updated' })).toBe('1');
    await addEvents(3);
    expect(await total(alice, `/projects/${project.id}/events`)).toBe('5');
    expect(await total(alice, `/projects/${project.id}/events`, { action: 'updated' })).toBe('1');
  });

  it('stops counting once the added events pass 10,000', async () => {
    await addEvents(9_995);
    expect(await total(alice, `/projects/${project.id}/events`)).toBe('10000');
    await addEvents(1);
    const { headers } = await kiln.api('GET', `/projects/${project.id}/events`, { token: alice.token });
    expect(headers['x-total']).toBeUndefined();
    expect(headers.link).not.toContain('rel="last"');
  });

  it('counts afresh after retention removed events', async () => {
    const users = await total(bob, `/users/${alice.id}/events`, { action: 'created' });
    expect(users).toBe('1');
    kiln.clock.advance(731 * 86_400_000);
    await kiln.worker.drain();
    expect(await total(bob, `/users/${alice.id}/events`, { action: 'created' })).toBe('0');
  });
});

describe('GET /api/v4/users/:id/events X-Total', () => {
  it('is exact again within a minute after a project turns private', async () => {
    const carol = await kiln.createUser('carol');
    const open = await kiln.createProject(carol, 'soon-private', { visibility: 'public' });
    expect(await total(bob, `/users/${carol.id}/events`)).toBe('1');
    await kiln.deps.db.updateTable('projects').set({ visibility: 'private' }).where('id', '=', open.id).execute();
    const { body } = await kiln.api('GET', `/users/${carol.id}/events`, { token: bob.token });
    expect(body).toEqual([]); // rows are always read fresh
    kiln.clock.advance(COUNT_TTL_MS);
    expect(await total(bob, `/users/${carol.id}/events`)).toBe('0');
  });
});
