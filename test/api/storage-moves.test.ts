import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ensureRepository } from '../../src/repositories/ensure-repository.js';

let kiln: TestKiln;
let admin: TestUser;
let alice: TestUser;
let shardsDir: string;

beforeAll(async () => {
  shardsDir = mkdtempSync(join(tmpdir(), 'kiln-shards-'));
  kiln = await testKiln({
    storages: [
      { name: 'default', path: join(shardsDir, 'default'), weight: 100 },
      { name: 'storage2', path: join(shardsDir, 'storage2'), weight: 0 },
    ],
  });
  admin = await kiln.createUser('operator', { admin: true });
  alice = await kiln.createUser('alice');
});
afterAll(async () => {
  await kiln.close();
  rmSync(shardsDir, { recursive: true, force: true });
});

async function groupOnShard(path: string): Promise<any> {
  const group = await kiln.createGroup(alice, path);
  await ensureRepository(kiln.deps, { type: 'group', id: group.id });
  return group;
}

async function readOnly(groupId: number): Promise<number> {
  const row = await kiln.deps.db.selectFrom('namespaces').select('read_only').where('id', '=', groupId).executeTakeFirstOrThrow();
  return Number(row.read_only);
}

describe('POST /api/v4/groups/:group_id/repository_storage_moves', () => {
  it('as an administrator answers 201 with the scheduled move and makes the group read-only', async () => {
    const group = await groupOnShard('move-me');
    const { status, body, headers } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } });
    expect(status).toBe(201);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toEqual({
      id: expect.any(Number),
      created_at: '2026-11-22T08:00:00.000Z',
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'storage2',
      group: { id: group.id, web_url: 'http://kiln.test/groups/move-me', name: 'move-me' },
    });
    expect(await readOnly(group.id)).toBe(1);
  });

  it('as an administrator picks the destination by weight when it is omitted', async () => {
    const group = await groupOnShard('by-weight');
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token });
    expect(status).toBe(201);
    // storage2 has weight 0, so the weighted choice can only be default.
    expect(body.destination_storage_name).toBe('default');
  });

  it('accepts a group path and ignores the extra parameters gitbeaker sends', async () => {
    await groupOnShard('by-path');
    const { status, body } = await kiln.api('POST', '/groups/by-path/repository_storage_moves?group_id=999', {
      token: admin.token,
      body: { source_storage_name: 'default', group_id: 999, destination_storage_name: 'storage2' },
    });
    expect(status).toBe(201);
    expect(body.group.name).toBe('by-path');
  });

  it('as an administrator answers 400 for an unknown destination shard', async () => {
    const group = await groupOnShard('unknown-shard');
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'nope' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { destination_storage_name: ['is not included in the list'] } });
    expect(await readOnly(group.id)).toBe(0);
  });

  it('as an administrator answers 400 when the group is already read-only (a move is running)', async () => {
    const group = await groupOnShard('twice');
    expect((await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } })).status).toBe(201);
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { group: ['is read-only'] } });
  });

  it('as an administrator answers 404 for an unknown group', async () => {
    const { status, body } = await kiln.api('POST', '/groups/999999/repository_storage_moves', { token: admin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Group Not Found' });
  });

  it('as a group owner who is not an administrator answers 403', async () => {
    const group = await groupOnShard('owner-only');
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: alice.token });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
    expect(await readOnly(group.id)).toBe(0);
  });

  it('without a token answers 401', async () => {
    const { status, body } = await kiln.api('POST', '/groups/1/repository_storage_moves');
    expect(status).toBe(401);
    expect(body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('the one-unfinished-move-per-group invariant', () => {
  it('is enforced by the database even when the read-only flag was cleared', async () => {
    const group = await groupOnShard('invariant');
    await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } });
    await kiln.deps.db.updateTable('namespaces').set({ read_only: 0 }).where('id', '=', group.id).execute();
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: 'storage2' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { group: ['already has a repository storage move in progress'] } });
    expect(await readOnly(group.id)).toBe(0);
  });
});

describe('GET /api/v4/group_repository_storage_moves', () => {
  it('as an administrator lists moves newest first with pagination headers', async () => {
    const first = await groupOnShard('list-a');
    const second = await groupOnShard('list-b');
    const a = (await kiln.api('POST', `/groups/${first.id}/repository_storage_moves`, { token: admin.token })).body;
    kiln.clock.advance(1000);
    const b = (await kiln.api('POST', `/groups/${second.id}/repository_storage_moves`, { token: admin.token })).body;
    const { status, body, headers } = await kiln.api('GET', '/group_repository_storage_moves?per_page=2', { token: admin.token });
    expect(status).toBe(200);
    expect(body.map((move: any) => move.id)).toEqual([b.id, a.id]);
    expect(body[0].created_at > body[1].created_at).toBe(true);
    expect(headers['x-per-page']).toBe('2');
    expect(Number(headers['x-total'])).toBeGreaterThanOrEqual(2);
    expect(headers.link).toContain('rel="first"');
  });

  it('as a non-administrator answers 403', async () => {
    expect((await kiln.api('GET', '/group_repository_storage_moves', { token: alice.token })).status).toBe(403);
  });

  it('without a token answers 401', async () => {
    expect((await kiln.api('GET', '/group_repository_storage_moves')).status).toBe(401);
  });
});

describe('GET /api/v4/group_repository_storage_moves/:repository_storage_id', () => {
  it('as an administrator shows one move', async () => {
    const group = await groupOnShard('show-one');
    const created = (await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token })).body;
    const { status, body } = await kiln.api('GET', `/group_repository_storage_moves/${created.id}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body).toEqual(created);
  });

  it('as an administrator answers 404 Not found for an unknown id', async () => {
    const { status, body } = await kiln.api('GET', '/group_repository_storage_moves/999999', { token: admin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('as an administrator answers 400 for a non-integer id', async () => {
    const { status, body } = await kiln.api('GET', '/group_repository_storage_moves/abc', { token: admin.token });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'repository_storage_id is invalid' });
  });

  it('as a non-administrator answers 403', async () => {
    expect((await kiln.api('GET', '/group_repository_storage_moves/1', { token: alice.token })).status).toBe(403);
  });
});

describe('GET /api/v4/groups/:group_id/repository_storage_moves', () => {
  it("as an administrator lists only that group's moves, newest first", async () => {
    const group = await groupOnShard('group-list');
    const other = await groupOnShard('group-list-other');
    await kiln.api('POST', `/groups/${other.id}/repository_storage_moves`, { token: admin.token });
    const first = (await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token })).body;
    await kiln.worker.drain();
    kiln.clock.advance(1000);
    const second = (await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token })).body;
    const { status, body, headers } = await kiln.api('GET', `/groups/${group.id}/repository_storage_moves`, { token: admin.token });
    expect(status).toBe(200);
    expect(body.map((move: any) => move.id)).toEqual([second.id, first.id]);
    expect(headers['x-total']).toBe('2');
  });

  it('as an administrator answers 404 Group Not Found for an unknown group', async () => {
    const { status, body } = await kiln.api('GET', '/groups/999999/repository_storage_moves', { token: admin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Group Not Found' });
  });

  it('as a non-administrator answers 403', async () => {
    const group = await groupOnShard('group-list-403');
    expect((await kiln.api('GET', `/groups/${group.id}/repository_storage_moves`, { token: alice.token })).status).toBe(403);
  });
});

describe('GET /api/v4/groups/:group_id/repository_storage_moves/:repository_storage_id', () => {
  it('as an administrator shows a move of the group', async () => {
    const group = await groupOnShard('group-show');
    const created = (await kiln.api('POST', `/groups/${group.id}/repository_storage_moves`, { token: admin.token })).body;
    const { status, body } = await kiln.api('GET', `/groups/${group.id}/repository_storage_moves/${created.id}?group_id=${group.id}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body).toEqual(created);
  });

  it("as an administrator answers 404 Not found for another group's move", async () => {
    const group = await groupOnShard('group-show-a');
    const other = await groupOnShard('group-show-b');
    const created = (await kiln.api('POST', `/groups/${other.id}/repository_storage_moves`, { token: admin.token })).body;
    const { status, body } = await kiln.api('GET', `/groups/${group.id}/repository_storage_moves/${created.id}`, { token: admin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('as a non-administrator answers 403', async () => {
    const group = await groupOnShard('group-show-403');
    expect((await kiln.api('GET', `/groups/${group.id}/repository_storage_moves/1`, { token: alice.token })).status).toBe(403);
  });
});

describe('POST /api/v4/group_repository_storage_moves', () => {
  it('as an administrator answers 202 and a job schedules a move for every group on the source shard', async () => {
    const groups = [];
    for (let i = 0; i < 12; i += 1) groups.push(await groupOnShard(`bulk-${i}`));
    // A group on the other shard is not touched.
    const elsewhere = await kiln.createGroup(alice, 'bulk-elsewhere');
    const { row } = await ensureRepository(kiln.deps, { type: 'group', id: elsewhere.id });
    await kiln.deps.db.updateTable('repositories').set({ shard: 'storage2' }).where('id', '=', row.id).execute();

    await kiln.worker.drain(); // finish earlier tests' moves so every bulk group is free
    const before = new Set((await kiln.deps.db.selectFrom('group_repository_storage_moves').select('id').execute()).map((m) => Number(m.id)));
    const { status, body, headers } = await kiln.api('POST', '/group_repository_storage_moves', { token: admin.token, body: { source_storage_name: 'default', destination_storage_name: 'storage2' } });
    expect(status).toBe(202);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toEqual({ message: '202 Accepted' });
    await kiln.worker.drain();
    const moves = (await kiln.deps.db.selectFrom('group_repository_storage_moves').selectAll().execute()).filter((m) => !before.has(Number(m.id)));
    const movedGroups = new Set(moves.map((m) => Number(m.group_id)));
    for (const group of groups) expect(movedGroups.has(group.id)).toBe(true);
    expect(movedGroups.has(elsewhere.id)).toBe(false);
    expect(moves.every((m) => m.state === 'finished' && m.source_storage_name === 'default' && m.destination_storage_name === 'storage2')).toBe(true);
    for (const group of groups) {
      const repo = await kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'group').where('container_id', '=', group.id).executeTakeFirstOrThrow();
      expect(repo.shard).toBe('storage2');
      expect(existsSync(join(shardsDir, 'storage2', repo.disk_path, 'HEAD'))).toBe(true);
      expect(existsSync(join(shardsDir, 'default', repo.disk_path))).toBe(false);
      expect(await readOnly(group.id)).toBe(0);
    }
  });

  it('as an administrator answers 400 without source_storage_name', async () => {
    const { status, body } = await kiln.api('POST', '/group_repository_storage_moves', { token: admin.token, body: {} });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'source_storage_name is missing' });
  });

  it('as an administrator answers 400 for unknown shard names', async () => {
    const source = await kiln.api('POST', '/group_repository_storage_moves', { token: admin.token, body: { source_storage_name: 'nope' } });
    expect(source.status).toBe(400);
    expect(source.body).toEqual({ error: 'source_storage_name does not have a valid value' });
    const destination = await kiln.api('POST', '/group_repository_storage_moves', { token: admin.token, body: { source_storage_name: 'default', destination_storage_name: 'nope' } });
    expect(destination.status).toBe(400);
    expect(destination.body).toEqual({ error: 'destination_storage_name does not have a valid value' });
  });

  it('as a non-administrator answers 403 and schedules nothing', async () => {
    const { status } = await kiln.api('POST', '/group_repository_storage_moves', { token: alice.token, body: { source_storage_name: 'default' } });
    expect(status).toBe(403);
  });

  it('without a token answers 401', async () => {
    expect((await kiln.api('POST', '/group_repository_storage_moves', { body: { source_storage_name: 'default' } })).status).toBe(401);
  });
});
