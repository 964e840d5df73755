// Revoking a project access token revokes the token only (GitLab's ResourceAccessTokens::RevokeService
// since 17.9): it is refused on the API and over git, stays listed with `state=inactive`, and its bot
// stays a member, though nothing set up in the bot's name runs any more. Bot memberships no longer
// expire with the token (creation and rotation leave them without an expiry), so an expired token is
// listed as inactive too. A bot whose tokens have all been unusable for 30 days is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { claimDueSchedules } from '../../src/ci/schedules/run-schedules.js';

let kiln: TestKiln;
let w: RepositoryWorld;
const DAY = 24 * 3_600_000;
const made: Record<string, { id: number; user_id: number; token: string }> = {};

const tokens = (path = '') => `/projects/${w.project.id}/access_tokens${path}`;

async function makeToken(name: string, body: Record<string, unknown> = {}) {
  made[name] = await kiln.apiAs(w.owner, 'POST', tokens(), { name, scopes: ['api', 'write_repository'], access_level: 40, ...body });
  return made[name];
}

async function listed(state?: string): Promise<string[]> {
  const rows = await kiln.apiAs(w.owner, 'GET', tokens(state ? `?state=${state}` : ''));
  return rows.map((row: { name: string }) => row.name).sort();
}

async function member(userId: number) {
  return (await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}/members`)).find((row: { id: number }) => row.id === userId);
}

async function gitStatus(bot: { user_id: number; token: string }): Promise<number> {
  const { username } = await kiln.apiAs(kiln.root, 'GET', `/users/${bot.user_id}`);
  const response = await kiln.request('GET', `/${w.group.path}/app.git/info/refs?service=git-upload-pack`, {
    headers: { authorization: `Basic ${Buffer.from(`${username}:${bot.token}`).toString('base64')}` },
  });
  return response.statusCode;
}

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'build:\n  script: echo hi\n')] });
  await kiln.worker.drain();
});
afterAll(() => kiln?.close());

describe('revoking a project access token', () => {
  it('refuses the token everywhere and lists it as inactive; the bot stays a member', async () => {
    const bot = await makeToken('revoked');
    expect(await gitStatus(bot)).toBe(200);
    expect((await member(bot.user_id)).access_level).toBe(40);
    expect((await kiln.api('DELETE', tokens(`/${bot.id}`), { token: w.owner.token })).status).toBe(204);

    expect((await kiln.api('GET', '/user', { token: bot.token })).status).toBe(401);
    expect((await kiln.api('GET', `/projects/${w.project.id}`, { token: bot.token })).status).toBe(401);
    expect(await gitStatus(bot)).toBe(401);
    expect(await listed()).toEqual([]);
    expect(await listed('inactive')).toEqual(['revoked']);
    expect(await kiln.apiAs(w.owner, 'GET', tokens(`/${bot.id}`))).toMatchObject({ name: 'revoked', revoked: true, active: false, access_level: 40 });
    expect(await member(bot.user_id)).toMatchObject({ access_level: 40, expires_at: null });
    // Revoking it again changes nothing.
    expect((await kiln.api('DELETE', tokens(`/${bot.id}`), { token: w.owner.token })).status).toBe(204);
  });

  it('stops what the bot set up from running in its name', async () => {
    const bot = await makeToken('scheduler');
    const schedule = await kiln.api('POST', `/projects/${w.project.id}/pipeline_schedules`, { token: bot.token, body: { description: 'hourly', ref: 'main', cron: '0 * * * *' } });
    expect(schedule.status).toBe(201);
    const scheduled = () => kiln.deps.db.selectFrom('ci_pipelines').select('id').where('pipeline_schedule_id', '=', schedule.body.id).execute();
    kiln.clock.advance(3_600_000);
    expect(await claimDueSchedules(kiln.deps)).toBe(1);
    await kiln.worker.drain();
    expect(await scheduled()).toHaveLength(1);

    expect((await kiln.api('DELETE', tokens(`/${bot.id}`), { token: w.owner.token })).status).toBe(204);
    kiln.clock.advance(3_600_000);
    expect(await claimDueSchedules(kiln.deps)).toBe(1);
    await kiln.worker.drain();
    expect(await scheduled()).toHaveLength(1);
  });
});

describe('expiry and rotation', () => {
  it('keeps an expired token listed as inactive: the membership does not expire with it', async () => {
    const bot = await makeToken('short', { expires_at: '2026-11-23' });
    expect((await member(bot.user_id)).expires_at).toBeNull();
    kiln.clock.advance(2 * DAY);
    await kiln.worker.drain();
    expect((await kiln.api('GET', '/user', { token: bot.token })).status).toBe(401);
    expect(await listed('inactive')).toEqual(['revoked', 'scheduler', 'short']);
    expect((await member(bot.user_id)).access_level).toBe(40);
  });

  it('rotation leaves the bot membership without an expiry, clearing one an older Kiln set', async () => {
    const bot = await makeToken('rotating', { expires_at: '2026-12-20' });
    await kiln.deps.db.updateTable('members').set({ expires_at: '2026-12-20' }).where('user_id', '=', bot.user_id).execute();
    const rotated = await kiln.apiAs(w.owner, 'POST', tokens(`/${bot.id}/rotate`));
    expect(rotated.expires_at).not.toBeNull();
    expect((await member(bot.user_id)).expires_at).toBeNull();
    made.rotating = { ...rotated, user_id: bot.user_id };
  });
});

describe('retention', () => {
  it('deletes the bots whose tokens have all been unusable for 30 days, and keeps the others', async () => {
    const forever = await makeToken('forever');
    kiln.clock.advance(20 * DAY);
    await kiln.worker.drain();
    const recent = await makeToken('recent');
    expect((await kiln.api('DELETE', tokens(`/${recent.id}`), { token: w.owner.token })).status).toBe(204);
    // 2026-12-24: the cut-off is 2026-11-24 08:00.
    kiln.clock.advance(10 * DAY);
    await kiln.worker.drain();
    const exists = async (userId: number) => (await kiln.api('GET', `/users/${userId}`, { token: kiln.root.token })).status === 200;
    // Revoked on 11-22, and expired at the end of 11-23: gone with their tokens.
    for (const name of ['revoked', 'scheduler', 'short']) expect(await exists(made[name].user_id), name).toBe(false);
    // A token that never expires, one revoked 10 days ago, and the rotated one (expired on 12-01, after the cut-off) keep theirs.
    for (const bot of [forever, recent, made.rotating]) expect(await exists(bot.user_id)).toBe(true);
    expect(await listed()).toEqual(['forever']);
    expect(await listed('inactive')).toEqual(['recent', 'rotating', 'rotating']);
  });
});
