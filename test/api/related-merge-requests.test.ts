// GET /projects/:id/issues/:issue_iid/related_merge_requests (issue 34): the merge requests that close
// an issue or refer to it in their title, description or comments (`#12`, `group/project#12`), never
// those that only mention a longer number, and only what the caller may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
});

afterAll(async () => {
  await kiln?.close();
});

describe('GET /projects/:id/issues/:issue_iid/related_merge_requests', () => {
  it('lists the merge requests that close or mention the issue', async () => {
    const issue = await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/issues`, { title: 'Bug' });
    for (let i = 0; i < 11; i += 1) await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/issues`, { title: `Filler ${i}` });
    const open = async (branch: string, body: Record<string, unknown>) => {
      await branchWith(kiln, w.developer, w.project.id, branch, [create(`${branch}.txt`, 'x\n')]);
      return openMergeRequest(kiln, w.developer, w.project.id, { source_branch: branch, ...body });
    };
    const closing = await open('closing', { title: 'Fix it', description: `Closes #${issue.iid}` });
    const mentioning = await open('mentioning', { title: `Related to #${issue.iid}` });
    const fullPath = await open('full-path', { title: 'Elsewhere', description: `See ${w.project.path_with_namespace}#${issue.iid}.` });
    const commented = await open('commented', { title: 'Quiet' });
    await kiln.apiAs(w.reporter, 'POST', `/projects/${w.project.id}/merge_requests/${commented.iid}/notes`, { body: `Is this #${issue.iid}?` });
    await open('longer', { title: `About #${issue.iid}0 and #${issue.iid}1` });
    await open('unrelated', { title: 'Nothing here' });
    await kiln.worker.drain();
    const related = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/issues/${issue.iid}/related_merge_requests`);
    expect(related.map((mr: any) => mr.iid)).toEqual([closing.iid, mentioning.iid, fullPath.iid, commented.iid]);
    expect(related[0]).toMatchObject({ title: 'Fix it', references: { short: `!${closing.iid}` } });
    const none = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/issues/${issue.iid + 5}/related_merge_requests`);
    expect(none).toEqual([]);
    // Twelve issues and six pushed branches with merge requests: slow on a loaded machine.
  }, 60_000);

  it('is 404 for an issue that does not exist and for strangers of a private project', async () => {
    expect((await kiln.api('GET', `/projects/${w.project.id}/issues/999/related_merge_requests`, { token: w.reporter.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${w.project.id}/issues/1/related_merge_requests`, { token: w.stranger.token })).status).toBe(404);
  });
});
