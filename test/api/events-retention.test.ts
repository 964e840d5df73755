// The daily jobs of the events feature: retention (2 years by default) and membership expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { recordEvent } from '../../src/platform/events/record-event.js';
import { pruneEvents, PRUNE_EVENTS_JOB } from '../../src/events/prune-events.js';
import { EXPIRE_MEMBERSHIPS_JOB } from '../../src/events/expire-memberships.js';
import { eventsFeature } from '../../src/events/index.js';

const DAY = 86_400_000;
let kiln: TestKiln;
let alice: TestUser;
let project: any;

async function queued(kind: string): Promise<number[]> {
  const rows = await kiln.deps.db.selectFrom('jobs').select(['run_at']).where('kind', '=', kind).where('state', '=', 'queued').execute();
  return rows.map((row) => Number(row.run_at));
}

async function eventTitles(): Promise<string[]> {
  const rows = await kiln.deps.db.selectFrom('events').select('target_title').where('project_id', '=', project.id).where('action', '=', 'updated').orderBy('id').execute();
  return rows.map((row) => row.target_title as string);
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  project = await kiln.createProject(alice, 'history');
});
afterAll(() => kiln.close());

describe('event retention job', () => {
  it('is queued once at start, and starting again (another node) queues no second one', async () => {
    expect(await queued(PRUNE_EVENTS_JOB)).toHaveLength(1);
    expect(await queued(EXPIRE_MEMBERSHIPS_JOB)).toHaveLength(1);
    await Promise.all([eventsFeature.onStart!(kiln.deps), eventsFeature.onStart!(kiln.deps)]);
    expect(await queued(PRUNE_EVENTS_JOB)).toHaveLength(1);
    expect(await queued(EXPIRE_MEMBERSHIPS_JOB)).toHaveLength(1);
  });

  it('deletes events older than 730 days, keeps younger ones, and schedules itself a day later', async () => {
    const now = kiln.clock.now();
    const at = (label: string, ms: number) => recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: alice.id, action: 'updated', target: { type: 'Issue', id: 1, iid: 1, title: label }, createdAt: ms });
    await at('731 days old', now - 731 * DAY);
    await at('just over 730 days', now - 730 * DAY - 1);
    await at('exactly 730 days', now - 730 * DAY);
    await at('yesterday', now - DAY);
    await kiln.worker.drain();
    expect(await eventTitles()).toEqual(['exactly 730 days', 'yesterday']);
    expect(await queued(PRUNE_EVENTS_JOB)).toEqual([now + DAY]);
  });

  it('runs again the next day and removes what aged past the limit meanwhile', async () => {
    kiln.clock.advance(DAY);
    await kiln.worker.drain();
    expect(await eventTitles()).toEqual(['yesterday']);
    expect(await queued(PRUNE_EVENTS_JOB)).toEqual([kiln.clock.now() + DAY]);
  });

  it('honours a configured retention and deletes a large backlog in batches', async () => {
    const now = kiln.clock.now();
    const rows = Array.from({ length: 25 }, (_, i) => ({ project_id: project.id, author_id: alice.id, action: 'updated', target_type: 'Issue', target_id: 1, target_iid: 1, target_title: `old ${i}`, push_data: null, created_at: now - 40 * DAY }));
    await kiln.deps.db.insertInto('events').values(rows).execute();
    const deps = { ...kiln.deps, config: { ...kiln.deps.config, eventRetentionDays: 30 } };
    expect(await pruneEvents(deps, 10)).toBe(25);
    expect(await eventTitles()).toEqual(['yesterday']);
  });
});

describe('membership expiry job', () => {
  it('removes memberships after their expiry day and records an expired event', async () => {
    const bob = await kiln.createUser('bob');
    const carol = await kiln.createUser('carol');
    const today = new Date(kiln.clock.now()).toISOString().slice(0, 10);
    const tomorrow = new Date(kiln.clock.now() + DAY).toISOString().slice(0, 10);
    for (const [user, expires] of [[bob, today], [carol, tomorrow]] as const) {
      const { status } = await kiln.api('POST', `/projects/${project.id}/members`, { token: alice.token, body: { user_id: user.id, access_level: 30, expires_at: expires } });
      expect(status).toBe(201);
    }
    // A membership lasts to the end of its expiry day.
    await kiln.worker.drain();
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: bob.token })).status).toBe(200);

    kiln.clock.advance(DAY);
    await kiln.worker.drain();
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: bob.token })).status).toBe(404);
    const member = await kiln.deps.db.selectFrom('members').select('id').where('user_id', '=', bob.id).executeTakeFirst();
    expect(member).toBeUndefined();
    const { body } = await kiln.api('GET', `/projects/${project.id}/events`, { token: alice.token, query: { action: 'expired' } });
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ action_name: 'removed due to membership expiration from', author_id: bob.id, target_type: null, project_id: project.id });
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: carol.token })).status).toBe(200);
  });
});
