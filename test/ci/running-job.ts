// A running job for tests of its token: a project runner made by `user`, a `.gitlab-ci.yml` of one
// job committed by them (so it is the job's user), and the job claimed over the runner protocol.
import { expect } from 'vitest';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { commit, create, type RepositoryWorld } from '../api/repository-api-driver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

export async function claimRunningJob(kiln: TestKiln, user: TestUser, projectId: number): Promise<{ id: number; token: string }> {
  const runner = await kiln.api('POST', '/user/runners', { token: user.token, body: { runner_type: 'project_type', project_id: projectId, run_untagged: true } });
  await commit(kiln, user.token, projectId, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'job:\n  script: make\n')] });
  await kiln.worker.drain();
  const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runner.body.token } });
  expect(claimed.statusCode).toBe(201);
  return { id: claimed.json().id, token: claimed.json().token };
}

/**
 * The world of the job token tests: `other`, a private project in the world's group with a README
 * that the world's maintainer maintains, and a job of the world's project claimed by that maintainer.
 */
export async function jobTokenWorld(kiln: TestKiln, w: RepositoryWorld): Promise<{ other: any; job: { id: number; token: string } }> {
  const other = await kiln.createProject(w.owner, 'other', { namespace_id: w.group.id, visibility: 'private' });
  await kiln.addMember(w.owner, 'projects', other.id, w.maintainer, ACCESS.maintainer);
  await commit(kiln, w.owner.token, other.id, { branch: 'main', commit_message: 'x', actions: [create('README.md', 'x\n')] });
  return { other, job: await claimRunningJob(kiln, w.maintainer, w.project.id) };
}
