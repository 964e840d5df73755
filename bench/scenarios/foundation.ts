// Foundation hot paths (issue 2, "Performance"): an authenticated project read and a 20-item project
// page, at 10 connections, against the bare node:http baselines. A diagnostic without a goal: one URL
// with one token measures a cache's best case, and the realistic mix is the read goal (issue 40,
// docs/decisions.md); issue 2 had set ≥ 0.5× the baseline and p99 < 10 ms.
import type { Deps } from '../../src/platform/deps.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { DIAGNOSTIC, type BenchScenario, type BenchTarget } from '../scenario.js';
import { createUser } from '../../src/accounts/create-user.js';
import { createGroup } from '../../src/accounts/create-group.js';
import { createProject } from '../../src/accounts/create-project.js';
import { addMember } from '../../src/accounts/members.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

export async function seedUser(deps: Deps, username: string): Promise<{ actor: Principal; token: string }> {
  const row = await createUser(deps, { username, name: `Bench ${username}`, email: `${username}@bench.example` });
  const { row: tokenRow, token } = await createPersonalAccessToken(deps, { userId: row.id, name: 'bench', scopes: ['api'] });
  return { actor: { user: toAuthUser(row), scopes: ['api'], via: 'personal_access_token', tokenId: Number(tokenRow.id) }, token };
}

/**
 * The caller is a Developer of a nested group with 40 projects, other users own 300 private projects
 * it must not see, and 50 public projects it may. Shared by the issue 20 variants (uncached,
 * PostgreSQL, under a write stream); `writeProjectId` is a project the reader does not read, for
 * background writes.
 */
export async function seedFoundation(deps: Deps): Promise<Record<string, unknown>> {
  const reader = await seedUser(deps, 'bench-reader');
  const owner = await seedUser(deps, 'bench-owner');
  const top = await createGroup(deps, owner.actor, { name: 'Bench', path: 'bench' });
  const team = await createGroup(deps, owner.actor, { name: 'Team', path: 'team', parentId: Number(top.id) });
  await addMember(deps, owner.actor.user.id, { type: 'Namespace', id: Number(top.id) }, { userId: reader.actor.user.id, accessLevel: ACCESS.developer });
  let projectId = 0;
  for (let i = 0; i < 40; i += 1) {
    const project = await createProject(deps, owner.actor, { name: `service-${i}`, namespaceId: Number(team.id), description: `Service number ${i} of the bench team` });
    if (i === 20) projectId = Number(project.id);
  }
  for (let u = 0; u < 10; u += 1) {
    const other = await seedUser(deps, `bench-other-${u}`);
    for (let i = 0; i < 30; i += 1) await createProject(deps, other.actor, { name: `private-${i}` });
    for (let i = 0; i < 5; i += 1) await createProject(deps, other.actor, { name: `public-${i}`, visibility: 'public' });
  }
  const writes = await createProject(deps, owner.actor, { name: 'write-stream' });
  return { token: reader.token, projectId, writeProjectId: Number(writes.id) };
}

/** The two foundation reads as the seeded Developer (project read, page): diagnostics, without goals. */
export function foundationTargets(seeded: Record<string, unknown>): BenchTarget[] {
  const headers = { 'private-token': String(seeded.token) };
  return [
    { name: 'GET /api/v4/projects/:id', method: 'GET', path: `/api/v4/projects/${seeded.projectId}`, headers, targets: DIAGNOSTIC, connections: 10 },
    { name: 'GET /api/v4/projects (20 per page)', method: 'GET', path: '/api/v4/projects?per_page=20', headers, targets: DIAGNOSTIC, connections: 10 },
  ];
}

export const scenario: BenchScenario = {
  name: 'foundation',
  seed: seedFoundation,
  async targets(_server, seeded) {
    return foundationTargets(seeded);
  },
};

export default scenario;
