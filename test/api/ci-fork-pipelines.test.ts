// Merge request pipelines of a fork's merge request (issue 39), as GitLab's
// pipeline_project_and_ref places them: the fork's author, who may not run pipelines in the parent,
// gets the pipeline in the fork on the source branch; a parent's Maintainer who asks through the API
// runs it in the parent on refs/merge-requests/<iid>/head; both count as the merge request's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'mr:\n  script: test\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n')] });
  await kiln.worker.drain();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

describe("a fork's merge request", () => {
  it('runs in the fork for its author, in the parent when a parent Maintainer asks', { timeout: 120_000 }, async () => {
    const forked = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.reporter.token });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const fork = forked.body;
    await kiln.worker.drain();
    await commit(kiln, w.reporter.token, fork.id, { branch: 'topic', start_branch: 'main', commit_message: 'topic', actions: [create('topic.txt')] });
    const opened = await kiln.api('POST', `/projects/${fork.id}/merge_requests`, { token: w.reporter.token, body: { source_branch: 'topic', target_branch: 'main', target_project_id: w.project.id, title: 'From a fork' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    await kiln.worker.drain();
    const inFork = (await kiln.api('GET', `/projects/${fork.id}/pipelines`, { token: w.reporter.token })).body as any[];
    expect(inFork.map((pipeline) => [pipeline.source, pipeline.ref])).toEqual([['merge_request_event', 'topic']]);
    expect((await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.maintainer.token })).body.filter((pipeline: any) => pipeline.source === 'merge_request_event')).toEqual([]);
    const mr = `/projects/${w.project.id}/merge_requests/${opened.body.iid}`;
    expect((await kiln.api('GET', mr, { token: w.maintainer.token })).body.head_pipeline).toMatchObject({ id: inFork[0].id, project_id: fork.id });
    const run = await kiln.api('POST', `${mr}/pipelines`, { token: w.maintainer.token });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({ project_id: w.project.id, ref: `refs/merge-requests/${opened.body.iid}/head`, source: 'merge_request_event' });
    expect((await kiln.api('GET', mr, { token: w.maintainer.token })).body.head_pipeline).toMatchObject({ id: run.body.id, project_id: w.project.id });
    expect(((await kiln.api('GET', `${mr}/pipelines`, { token: w.maintainer.token })).body as any[]).map((pipeline) => pipeline.id)).toEqual([run.body.id, inFork[0].id]);
  });
});
