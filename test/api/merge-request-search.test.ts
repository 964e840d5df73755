// Search scope merge_requests (issue 34): project, group and global searches find the merge requests
// the caller may read by title or description, `!iid` by iid, with GitLab's state filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let needle: any;
let other: any;

const search = (path: string, token: string, query: Record<string, string>) => kiln.api('GET', path, { token, query: { scope: 'merge_requests', ...query } });

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'needle', [create('needle.txt', 'n\n')]);
  await branchWith(kiln, w.developer, w.project.id, 'hay', [create('hay.txt', 'h\n')]);
  needle = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'needle', title: 'Find the Needle' });
  other = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'hay', title: 'Hay', description: 'a needle in the description' });
});

afterAll(async () => {
  await kiln?.close();
});

describe('search scope merge_requests', () => {
  it('finds merge requests of a project by title or description, newest first, counted', async () => {
    const found = await search(`/projects/${w.project.id}/search`, w.reporter.token, { search: 'needle' });
    expect(found.status).toBe(200);
    expect(found.body.map((mr: any) => mr.iid)).toEqual([other.iid, needle.iid]);
    expect(found.body[0]).toMatchObject({ title: 'Hay', references: { short: `!${other.iid}`, relative: `!${other.iid}` }, state: 'opened' });
    expect(found.headers['x-total']).toBe('2');
    const byIid = await search(`/projects/${w.project.id}/search`, w.reporter.token, { search: `!${needle.iid}` });
    expect(byIid.body.map((mr: any) => mr.iid)).toEqual([needle.iid]);
    expect((await search(`/projects/${w.project.id}/search`, w.reporter.token, { search: 'needle', state: 'merged' })).body).toEqual([]);
  });

  it('finds them in groups and everywhere, only for those who may read them', async () => {
    expect((await search(`/groups/${w.group.id}/search`, w.owner.token, { search: 'needle' })).body.map((mr: any) => mr.iid)).toEqual([other.iid, needle.iid]);
    const global = await search('/search', w.reporter.token, { search: 'Needle' });
    expect(global.body.map((mr: any) => mr.id)).toEqual([other.id, needle.id]);
    expect(global.body[0].references.relative).toBe(`${w.project.path_with_namespace}!${other.iid}`);
    // A guest of the private project reads it, not its merge requests; a stranger neither.
    expect((await search(`/projects/${w.project.id}/search`, w.guest.token, { search: 'needle' })).body).toEqual([]);
    expect((await search('/search', w.guest.token, { search: 'needle' })).body).toEqual([]);
    expect((await search('/search', w.stranger.token, { search: 'needle' })).body).toEqual([]);
  });
});
