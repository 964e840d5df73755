// Growth (issue 40): the list, filter and search endpoints over 10⁴ and 10⁵ issues (BENCH_GROWTH_MAX=1000000
// adds 10⁶), issues seeded with bulk SQL between the sizes; each endpoint's p99 at every size against
// its p99 at 10⁴. Half the issues are in one project, the rest in four others of the same user.
import type { BenchScenario } from '../scenario.js';
import { createProject } from '../../src/accounts/create-project.js';
import { seedUser } from './foundation.js';
import { insertIssues } from '../seed-issues.js';

const MAX = Number(process.env.BENCH_GROWTH_MAX ?? 100_000);
const SIZES = [10_000, 100_000, 1_000_000].filter((size) => size <= MAX);

interface GrowthSeed {
  token: string;
  userId: number;
  otherUserId: number;
  hot: number;
  projectIds: number[];
  issues: number;
  lastIids: Map<number, number>;
}

export const scenario: BenchScenario = {
  name: 'growth',
  async seed(deps) {
    const owner = await seedUser(deps, 'growth-owner');
    const other = await seedUser(deps, 'growth-other');
    const projects = [];
    for (let p = 0; p < 5; p += 1) projects.push(Number((await createProject(deps, owner.actor, { name: `tracker-${p}` })).id));
    const [hot, ...rest] = projects;
    const seeded: GrowthSeed = { token: owner.token, userId: owner.actor.user.id, otherUserId: other.actor.user.id, hot, projectIds: rest.flatMap((id) => [hot, id]), issues: 0, lastIids: new Map() };
    return seeded as unknown as Record<string, unknown>;
  },
  growth: {
    sizes: SIZES,
    maxP99Growth: 2,
    async grow(deps, size, record) {
      const seeded = record as unknown as GrowthSeed;
      await insertIssues(deps, {
        projectIds: seeded.projectIds,
        count: size - seeded.issues,
        from: seeded.issues,
        authorIds: [seeded.userId, seeded.otherUserId],
        // One issue in a thousand has the word the searches look for.
        title: (n) => (n % 1000 === 500 ? `Needle ${n}: login fails after upgrade` : `Issue ${n}: build ${n % 97} is slow on ${['main', 'release', 'feature'][n % 3]}`),
      }, seeded.lastIids);
      seeded.issues = size;
    },
    targets(record) {
      const seeded = record as unknown as GrowthSeed;
      const headers = { 'private-token': seeded.token };
      return [
        { name: 'project issues', path: `/api/v4/projects/${seeded.hot}/issues?per_page=20`, headers },
        { name: 'project issues, filtered (closed, by author)', path: `/api/v4/projects/${seeded.hot}/issues?state=closed&author_id=${seeded.otherUserId}&per_page=20`, headers },
        { name: 'project issues, search', path: `/api/v4/projects/${seeded.hot}/issues?search=needle&per_page=20`, headers },
        { name: 'all issues (scope=all, opened)', path: '/api/v4/issues?scope=all&state=opened&per_page=20', headers },
        { name: 'search scope=issues', path: '/api/v4/search?scope=issues&search=needle&per_page=20', headers },
      ];
    },
  },
  async targets() {
    return [];
  },
};

export default scenario;
