// Deleting a project removes its repository and its wiki's from disk, deleting a group its wiki's: the
// daily orphan job (repositories/prune-orphans.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { twoShards } from '../helpers/git.js';
import { ensureRepository, findRepository } from '../../src/repositories/ensure-repository.js';
import { PRUNE_ORPHANS_JOB, pruneOrphanRepositories } from '../../src/repositories/prune-orphans.js';

let kiln: TestKiln;
let work: string;
let alice: TestUser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-orphans-'));
  kiln = await testKiln({ storages: twoShards(work) });
  alice = await kiln.createUser('alice');
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('repositories of deleted projects', () => {
  it('are looked for by a job that every start schedules once', async () => {
    const jobs = await kiln.deps.db.selectFrom('jobs').select(['kind', 'state']).where('kind', '=', PRUNE_ORPHANS_JOB).execute();
    expect(jobs).toHaveLength(1);
  });

  it('are removed from disk and forgotten; other repositories stay', async () => {
    const doomed = await kiln.createProject(alice, 'doomed');
    const kept = await kiln.createProject(alice, 'kept');
    const gone = await ensureRepository(kiln.deps, { type: 'project', id: doomed.id });
    const stays = await ensureRepository(kiln.deps, { type: 'project', id: kept.id });
    expect(existsSync(join(gone.path, 'HEAD'))).toBe(true);

    expect(await pruneOrphanRepositories(kiln.deps)).toBe(0);
    expect((await kiln.api('DELETE', `/projects/${doomed.id}`, { token: alice.token })).status).toBe(202);
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);

    expect(existsSync(gone.path)).toBe(false);
    expect(await findRepository(kiln.deps, 'project', doomed.id)).toBeUndefined();
    expect(existsSync(join(stays.path, 'HEAD'))).toBe(true);
    expect(await findRepository(kiln.deps, 'project', kept.id)).toBeDefined();
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(0);
  });

  it("remove a deleted project's wiki repository beside its code, and a deleted group's wiki", async () => {
    const project = await kiln.createProject(alice, 'wiki-doomed');
    const group = await kiln.createGroup(alice, 'wiki-group');
    expect((await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'home', content: 'x' } })).status).toBe(201);
    expect((await kiln.api('POST', `/groups/${group.id}/wikis`, { token: alice.token, body: { title: 'home', content: 'y' } })).status).toBe(201);
    const wiki = (await findRepository(kiln.deps, 'project_wiki', project.id))!;
    const groupWiki = (await findRepository(kiln.deps, 'group', group.id))!;
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(0);
    expect((await kiln.api('DELETE', `/projects/${project.id}`, { token: alice.token })).status).toBe(202);
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);
    expect(await findRepository(kiln.deps, 'project_wiki', project.id)).toBeUndefined();
    expect(existsSync(join(twoShards(work).find((shard) => shard.name === wiki.shard)!.path, wiki.disk_path))).toBe(false);
    await kiln.deps.db.deleteFrom('namespaces').where('id', '=', group.id).execute();
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);
    expect(existsSync(join(twoShards(work).find((shard) => shard.name === groupWiki.shard)!.path, groupWiki.disk_path))).toBe(false);
  });

  it('finishes the job when the directory is already gone (a crash between the two steps)', async () => {
    const project = await kiln.createProject(alice, 'half-done');
    const repository = await ensureRepository(kiln.deps, { type: 'project', id: project.id });
    await kiln.api('DELETE', `/projects/${project.id}`, { token: alice.token });
    rmSync(repository.path, { recursive: true, force: true });
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);
    expect(await findRepository(kiln.deps, 'project', project.id)).toBeUndefined();
  });
});
