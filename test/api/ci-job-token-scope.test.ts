// The CI/CD job token scope (issue 39): GitLab's /projects/:id/job_token_scope API (Maintainers) and
// its enforcement when a job token reaches another project over git: refused while that project
// limits access (the default) and does not list the job's project, allowed once it does or once
// the limit is off; the job's own project always.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { jobTokenWorld } from '../ci/running-job.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let other: any;
let jobToken: string;

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  let job: { token: string };
  ({ other, job } = await jobTokenWorld(kiln, w));
  jobToken = job.token;
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

const scope = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${other.id}/job_token_scope${path}`, { token, body });
const clone = async (project: any) => (await kiln.app.inject({
  method: 'GET', url: `/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`,
  headers: { authorization: `Basic ${Buffer.from(`gitlab-ci-token:${jobToken}`).toString('base64')}` },
})).statusCode;

describe('job token scope', () => {
  it("limits access by default; the job's own project is always reachable", async () => {
    expect((await scope('GET', '')).body).toEqual({ inbound_enabled: true, outbound_enabled: false });
    expect(await clone(w.project)).toBe(200);
    expect(await clone(other)).toBe(404);
  });

  it('reaches a project that lists the job project, and no longer once removed', async () => {
    const added = await scope('POST', '/allowlist', { target_project_id: w.project.id });
    expect([added.status, added.body]).toEqual([201, { source_project_id: other.id, target_project_id: w.project.id }]);
    expect((await scope('GET', '/allowlist')).body.map((project: any) => project.path_with_namespace)).toEqual([w.project.path_with_namespace]);
    expect(await clone(other)).toBe(200);
    expect((await scope('POST', '/allowlist', { target_project_id: w.project.id })).body).toEqual({ message: '400 Bad request - Target project is already in the job token scope' });
    expect((await scope('DELETE', `/allowlist/${w.project.id}`)).status).toBe(204);
    expect(await clone(other)).toBe(404);
    expect((await scope('DELETE', `/allowlist/${w.project.id}`)).body).toEqual({ message: '400 Bad request - Target project is not in the job token scope' });
    expect((await scope('POST', '/allowlist', { target_project_id: 999999 })).body).toEqual({ message: '404 target_project_id not found Not Found' });
  });

  it('reaches any project whose limit is off; only Maintainers manage the scope', async () => {
    expect((await scope('PATCH', '', {})).body).toEqual({ error: 'enabled is missing' });
    expect((await scope('PATCH', '', { enabled: false })).status).toBe(204);
    expect((await scope('GET', '')).body).toEqual({ inbound_enabled: false, outbound_enabled: false });
    expect(await clone(other)).toBe(200);
    await kiln.addMember(w.owner, 'projects', other.id, w.developer, ACCESS.developer);
    expect((await scope('GET', '', undefined, w.developer.token)).status).toBe(403);
    expect((await scope('GET', '', undefined, w.stranger.token)).status).toBe(404);
  });
});
