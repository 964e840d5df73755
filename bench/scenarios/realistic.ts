// Traffic shaped like real use (issue 40): 60 users, each with their own token, 2,000 projects of every
// visibility in personal namespaces and in a tree of groups, members direct and through groups, issues
// in every project; requests drawn at random over the reads clients make most (a project, the caller's
// projects by membership, a project's issues, an issue, a user, a project's merge requests), about 5 %
// of them for something the caller may not see or that does not exist (404). The baseline replays
// Kiln's own answers to the same requests (bench/mix.ts). The one-URL scenarios are diagnostics.
import type { Deps } from '../../src/platform/deps.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import type { BenchMix, BenchScenario, MixRequest } from '../scenario.js';
import { createGroup } from '../../src/accounts/create-group.js';
import { createProject } from '../../src/accounts/create-project.js';
import { addMember } from '../../src/accounts/members.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { seedUser } from './foundation.js';
import { insertIssues } from '../seed-issues.js';

const USERS = 60;
const TOP_GROUPS = 8;
const PROJECTS = Number(process.env.BENCH_REALISTIC_PROJECTS ?? 2000);
const ISSUES_PER_PROJECT = 6;
/** Requests in the mix per user (drawn with repeats during the load). */
const REQUESTS_PER_USER = 40;

type Visibility = 'private' | 'internal' | 'public';
interface SeededProject {
  id: number;
  namespaceId: number;
  visibility: Visibility;
}
interface Seeded {
  users: Array<{ id: number; token: string; groups: number[]; projects: number[] }>;
  projects: SeededProject[];
  /** Group id → parent group id (0 for a top-level group). */
  parents: Record<number, number>;
  /** User id → personal namespace id. */
  personal: Record<number, number>;
}

const RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };
const VISIBILITIES: Visibility[] = ['private', 'internal', 'public'];

export async function seedRealistic(deps: Deps): Promise<Record<string, unknown>> {
  const users: Array<{ actor: Principal; token: string; groups: number[]; projects: number[] }> = [];
  for (let u = 0; u < USERS; u += 1) users.push({ ...(await seedUser(deps, `user-${u}`)), groups: [], projects: [] });
  // Eight public top-level groups, each with a subgroup; every second subgroup private.
  const groups: Array<{ id: number; visibility: Visibility; owner: number }> = [];
  const parents: Record<number, number> = {};
  for (let g = 0; g < TOP_GROUPS; g += 1) {
    const owner = (g * 7) % USERS;
    const top = await createGroup(deps, users[owner].actor, { name: `Group ${g}`, path: `group-${g}`, visibility: 'public' });
    const visibility: Visibility = g % 2 ? 'private' : 'public';
    const sub = await createGroup(deps, users[owner].actor, { name: `Team ${g}`, path: `team-${g}`, parentId: Number(top.id), visibility });
    groups.push({ id: Number(top.id), visibility: 'public', owner }, { id: Number(sub.id), visibility, owner });
    parents[Number(top.id)] = 0;
    parents[Number(sub.id)] = Number(top.id);
    users[owner].groups.push(Number(top.id));
  }
  // Every user a Developer of one top-level group (inherited by its subgroup) and a Reporter of another group's subgroup.
  for (let u = 0; u < USERS; u += 1) {
    const top = groups[2 * (u % TOP_GROUPS)];
    const sub = groups[2 * ((u + 3) % TOP_GROUPS) + 1];
    for (const [group, level] of [[top, ACCESS.developer], [sub, ACCESS.reporter]] as const) {
      if (group.owner === u || users[u].groups.includes(group.id)) continue;
      await addMember(deps, users[group.owner].actor.user.id, { type: 'Namespace', id: group.id }, { userId: users[u].actor.user.id, accessLevel: level });
      users[u].groups.push(group.id);
    }
  }
  const personal: Record<number, number> = {};
  const projects: SeededProject[] = [];
  const createOne = async (p: number) => {
    const wanted = VISIBILITIES[p % 3];
    const inGroup = p % 2 === 1;
    const group = groups[(p >> 1) % groups.length];
    const owner = inGroup ? group.owner : p % USERS;
    const visibility = inGroup && RANK[wanted] > RANK[group.visibility] ? group.visibility : wanted;
    const row = await createProject(deps, users[owner].actor, { name: `project-${p}`, namespaceId: inGroup ? group.id : undefined, visibility, description: `Project ${p} of the realistic bench` });
    projects[p] = { id: Number(row.id), namespaceId: Number(row.namespace_id), visibility };
    if (!inGroup) personal[users[owner].actor.user.id] = Number(row.namespace_id);
    // One project in five has a direct Developer from elsewhere.
    const member = (p * 7 + 1) % USERS;
    if (p % 5 === 0 && member !== owner) {
      await addMember(deps, users[owner].actor.user.id, { type: 'Project', id: Number(row.id) }, { userId: users[member].actor.user.id, accessLevel: ACCESS.developer });
      users[member].projects.push(Number(row.id));
    }
  };
  // Eight at a time: on PostgreSQL each creation is a few round trips, one after the other took ~90 s on a busy machine.
  let nextProject = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let p = nextProject++; p < PROJECTS; p = nextProject++) await createOne(p);
  }));
  await insertIssues(deps, {
    projectIds: projects.map((project) => project.id),
    count: projects.length * ISSUES_PER_PROJECT,
    authorIds: users.map((user) => user.actor.user.id),
    title: (n) => `Issue ${n}: the pipeline fails on ${['main', 'release', 'feature'][n % 3]}`,
  });
  const seeded: Seeded = { users: users.map((user) => ({ id: user.actor.user.id, token: user.token, groups: user.groups, projects: user.projects })), projects, parents, personal };
  return seeded as unknown as Record<string, unknown>;
}

/** Whether the user reads the project (public and internal: any signed-in user; private: members, direct or through the group chain). */
function canRead(user: Seeded['users'][number], project: SeededProject, seeded: Seeded): boolean {
  if (project.visibility !== 'private') return true;
  if (seeded.personal[user.id] === project.namespaceId || user.projects.includes(project.id)) return true;
  for (let group = project.namespaceId; group; group = seeded.parents[group] ?? 0) if (user.groups.includes(group)) return true;
  return false;
}

/** Each user's requests: 95 % reads of what they may see, 5 % of a private project they may not or an issue that does not exist. */
export function realisticRequests(seededRecord: Record<string, unknown>): MixRequest[] {
  const seeded = seededRecord as unknown as Seeded;
  const requests: MixRequest[] = [];
  let n = 0;
  const next = () => (n = (n * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const user of seeded.users) {
    const readable = seeded.projects.filter((project) => canRead(user, project, seeded));
    const hidden = seeded.projects.filter((project) => !canRead(user, project, seeded));
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < REQUESTS_PER_USER; i += 1) {
      const draw = next();
      if (i % 20 === 19) {
        // The 5 %: a hidden project or an issue past the last.
        requests.push(next() < 0.5 && hidden.length ? { kind: '404', path: `/api/v4/projects/${pick(hidden).id}`, token: user.token } : { kind: '404', path: `/api/v4/projects/${pick(readable).id}/issues/${ISSUES_PER_PROJECT + 1 + Math.floor(next() * 100)}`, token: user.token });
        continue;
      }
      const project = pick(readable);
      const path =
        draw < 0.25 ? `/api/v4/projects/${project.id}`
        : draw < 0.4 ? '/api/v4/projects?membership=true&per_page=20'
        : draw < 0.6 ? `/api/v4/projects/${project.id}/issues?per_page=20`
        : draw < 0.8 ? `/api/v4/projects/${project.id}/issues/${1 + Math.floor(next() * ISSUES_PER_PROJECT)}`
        : draw < 0.9 ? `/api/v4/users/${pick(seeded.users).id}`
        : `/api/v4/projects/${project.id}/merge_requests?per_page=20`;
      requests.push({ kind: /\/merge_requests/.test(path) ? 'merge requests' : /\/issues\/\d/.test(path) ? 'issue' : /\/issues/.test(path) ? 'issues' : /\/users/.test(path) ? 'user' : /membership/.test(path) ? 'my projects' : 'project', path, token: user.token });
    }
  }
  return requests;
}

export function realisticMix(seeded: Record<string, unknown>, targets: BenchMix['targets']): BenchMix {
  // BENCH_MIX_KINDS (e.g. `issue,issues`) keeps only those kinds: a diagnostic of each kind's cost, without goals.
  const kinds = process.env.BENCH_MIX_KINDS?.split(',').map((kind) => kind.trim()).filter(Boolean);
  if (!kinds?.length) return { name: 'realistic mix (GET)', requests: realisticRequests(seeded), targets, connections: 10 };
  return { name: `realistic mix (GET), only ${kinds.join(', ')}`, requests: realisticRequests(seeded).filter((request) => kinds.includes(request.kind)), targets: {}, connections: 10 };
}

export const scenario: BenchScenario = {
  name: 'realistic',
  seed: seedRealistic,
  async targets() {
    return [];
  },
  async mixes(_server, seeded) {
    return [realisticMix(seeded, { minRatio: 0.5, maxP99Ms: 10 })];
  },
};

export default scenario;
