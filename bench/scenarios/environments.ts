// Environments under load (issue 5, Performance): a page of 20 out of 200 environments, and one
// environment with its last successful deployment, against the bare node:http baselines: a diagnostic
// without a goal, as foundation.ts (issue 5 had set at least half the baseline).
// The caller is a Reporter of the project's top-level group, not an administrator, so every request
// pays for the real permission check (membership inherited through a nested group).
import { DIAGNOSTIC, type BenchScenario } from '../scenario.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { findProject } from '../../src/accounts/lookup.js';
import { createGroup } from '../../src/accounts/create-group.js';
import { createProject } from '../../src/accounts/create-project.js';
import { createUser } from '../../src/accounts/create-user.js';
import { addMember } from '../../src/accounts/members.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { createEnvironment } from '../../src/environments/create-environment.js';
import { createDeployment } from '../../src/environments/create-deployment.js';

const ENVIRONMENTS = 200;

export const environmentsScenario: BenchScenario = {
  name: 'environments',

  async seed(deps) {
    const rootRow = await deps.db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
    const root: Principal = { user: toAuthUser(rootRow), scopes: ['api'], via: 'personal_access_token', tokenId: null };
    const suffix = deps.clock.now().toString(36);
    const group = await createGroup(deps, root, { name: `bench-env-${suffix}`, path: `bench-env-${suffix}` });
    const subgroup = await createGroup(deps, root, { name: 'platform', path: 'platform', parentId: Number(group.id) });
    const project = await createProject(deps, root, { name: 'web', path: 'web', namespaceId: Number(subgroup.id) });
    const reader = await createUser(deps, { username: `bench-env-reader-${suffix}`, name: 'Bench reader', email: `bench-env-reader-${suffix}@example.com` });
    await addMember(deps, root.user.id, { type: 'Namespace', id: Number(group.id) }, { userId: Number(reader.id), accessLevel: ACCESS.reporter });
    const { token } = await createPersonalAccessToken(deps, { userId: Number(reader.id), name: 'bench', scopes: ['read_api'] });

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
    return { projectId: Number(project.id), environmentId: shown, token };
  },

  async targets(_server, seeded) {
    const headers = { 'private-token': String(seeded.token) };
    return [
      {
        name: 'GET /projects/:id/environments (20 per page of 200)',
        method: 'GET',
        path: `/api/v4/projects/${seeded.projectId}/environments?per_page=20&page=3`,
        headers,
        targets: DIAGNOSTIC,
      },
      {
        name: 'GET /projects/:id/environments/:environment_id (with last_deployment)',
        method: 'GET',
        path: `/api/v4/projects/${seeded.projectId}/environments/${seeded.environmentId}`,
        headers,
        targets: DIAGNOSTIC,
      },
    ];
  },
};

export default environmentsScenario;
