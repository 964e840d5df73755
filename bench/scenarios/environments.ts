// Environments under load (issue 5, Performance): a page of 20 out of 200 environments, and one
// environment with its last successful deployment. Target: at least half the bare node:http baseline.
import type { BenchScenario } from '../scenario.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { findProject } from '../../src/accounts/lookup.js';
import { createProject } from '../../src/accounts/create-project.js';
import { createEnvironment } from '../../src/environments/create-environment.js';
import { createDeployment } from '../../src/environments/create-deployment.js';

const ENVIRONMENTS = 200;

export const environmentsScenario: BenchScenario = {
  name: 'environments',

  async seed(deps) {
    const rootRow = await deps.db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
    const root: Principal = { user: toAuthUser(rootRow), scopes: ['api'], via: 'personal_access_token', tokenId: null };
    const project = await createProject(deps, root, { name: 'bench-environments', path: `bench-environments-${Date.now()}` });
    const access = await findProject(deps, root, project.id);
    let shown = 0;
    for (let i = 0; i < ENVIRONMENTS; i += 1) {
      const env = await createEnvironment(deps, root, { access, name: i === 0 ? 'production' : `review/feature-${i}`, externalUrl: `https://env-${i}.example.com` });
      if (i === 0) shown = Number(env.id);
    }
    // A history with failures after the last success, so last_deployment has to pick the right one.
    for (const [n, status] of [[1, 'success'], [2, 'success'], [3, 'failed'], [4, 'running']] as const) {
      await createDeployment(deps, root, { access, environment: 'production', sha: String(n).repeat(40), ref: 'main', tag: false, status });
    }
    return { projectId: project.id, environmentId: shown };
  },

  async targets(server, seeded) {
    const headers = { 'private-token': server.rootToken };
    return [
      {
        name: 'GET /projects/:id/environments (20 per page of 200)',
        method: 'GET',
        path: `/api/v4/projects/${seeded.projectId}/environments?per_page=20&page=3`,
        headers,
        targets: { minRatio: 0.5 },
      },
      {
        name: 'GET /projects/:id/environments/:environment_id (with last_deployment)',
        method: 'GET',
        path: `/api/v4/projects/${seeded.projectId}/environments/${seeded.environmentId}`,
        headers,
        targets: { minRatio: 0.5 },
      },
    ];
  },
};

export default environmentsScenario;
