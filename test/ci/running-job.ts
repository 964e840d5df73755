// A running job for tests of its token: a project runner made by `user`, a `.gitlab-ci.yml` of one
// job committed by them (so it is the job's user), and the job claimed over the runner protocol.
import { expect } from 'vitest';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { commit, create } from '../api/repository-api-driver.js';

export async function claimRunningJob(kiln: TestKiln, user: TestUser, projectId: number): Promise<{ id: number; token: string }> {
  const runner = await kiln.api('POST', '/user/runners', { token: user.token, body: { runner_type: 'project_type', project_id: projectId, run_untagged: true } });
  await commit(kiln, user.token, projectId, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'job:\n  script: make\n')] });
  await kiln.worker.drain();
  const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runner.body.token } });
  expect(claimed.statusCode).toBe(201);
  return { id: claimed.json().id, token: claimed.json().token };
}
