// An issue's user_agent_detail (GitLab's user_agent_details of an issue, issue 38): the User-Agent and
// address of the request that created it, for administrators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createIssue } from '../../src/issues/create-issue.js';

let kiln: TestKiln;
let owner: TestUser;
let outsider: TestUser;
let projectId: number;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  outsider = await kiln.createUser('outsider');
  projectId = (await kiln.createProject(owner, 'tracked', { visibility: 'private' })).id;
});
afterAll(() => kiln.close());

const detailOf = (iid: number, token: string) => kiln.api('GET', `/projects/${projectId}/issues/${iid}/user_agent_detail`, { token });

describe('GET /api/v4/projects/:id/issues/:issue_iid/user_agent_detail', () => {
  describe('as an administrator', () => {
    it('answers the User-Agent and address of the request that created the issue', async () => {
      const issue = (await kiln.api('POST', `/projects/${projectId}/issues`, { token: owner.token, body: { title: 'made by a client' }, headers: { 'user-agent': 'python-gitlab/3.12.0' } })).body;
      const { status, body } = await detailOf(issue.iid, kiln.root.token);
      expect(status).toBe(200);
      expect(body).toEqual({ user_agent: 'python-gitlab/3.12.0', ip_address: expect.any(String), akismet_submitted: false });
      expect(body.ip_address).not.toBe('');
    });

    it('answers 404 UserAgentDetail Not Found for an issue made without a request (an alert incident)', async () => {
      const issue = await createIssue(kiln.deps, { projectId, authorId: owner.id, title: 'from an alert' });
      const { status, body } = await detailOf(issue.iid, kiln.root.token);
      expect([status, body.message]).toEqual([404, '404 UserAgentDetail Not Found']);
    });

    it('answers 404 for an unknown issue', async () => {
      expect((await detailOf(999, kiln.root.token)).status).toBe(404);
    });
  });

  describe('as the project owner (not an administrator)', () => {
    it('answers 403', async () => {
      const issue = (await kiln.api('POST', `/projects/${projectId}/issues`, { token: owner.token, body: { title: 'mine' } })).body;
      expect((await detailOf(issue.iid, owner.token)).status).toBe(403);
    });
  });

  describe('as a non-member of the private project', () => {
    it('answers 404', async () => {
      expect((await detailOf(1, outsider.token)).status).toBe(404);
    });
  });
});
