// Shared steps of the merge request suites: a project with a default branch and feature branches
// made through the repository API, and merge requests opened through the API.
import { expect } from 'vitest';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { commit, create, update } from './repository-api-driver.js';

export { create, update, commit };

/** `main` with a README, then a branch from it with its own commit. */
export async function seedRepository(kiln: TestKiln, user: TestUser, projectId: number): Promise<void> {
  await commit(kiln, user.token, projectId, { branch: 'main', commit_message: 'first', actions: [create('README.md', 'hello\n')] });
}

export async function branchWith(kiln: TestKiln, user: TestUser, projectId: number, branch: string, actions: Parameters<typeof commit>[3]['actions'], message = `work on ${branch}`): Promise<any> {
  const exists = (await kiln.api('GET', `/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`, { token: user.token })).status === 200;
  return commit(kiln, user.token, projectId, { branch, ...(exists ? {} : { start_branch: 'main' }), commit_message: message, actions });
}

export async function openMergeRequest(kiln: TestKiln, user: TestUser, projectId: number, body: Record<string, unknown>): Promise<any> {
  const response = await kiln.api('POST', `/projects/${projectId}/merge_requests`, { token: user.token, body: { target_branch: 'main', title: 'A change', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}
