// The realistic mix (bench/scenarios/realistic.ts) on PostgreSQL: one node against the replay
// baseline, then two nodes on the one database, their rates added, against one node in the same rounds.
import { sql } from 'kysely';
import type { BenchScenario } from '../scenario.js';
import { realisticMix, seedRealistic } from './realistic.js';

export const scenario: BenchScenario = {
  name: 'realistic-postgres',
  database: 'postgres',
  nodes: 2,
  async seed(deps) {
    const seeded = await seedRealistic(deps);
    // The server starts right after the seeding, before autovacuum has analysed the tables the seeding
    // filled: statistics as a running server's would have them (without, PostgreSQL plans the small
    // tables on default estimates; the token with its project ran ~0.55 ms instead of ~0.2).
    await sql`analyze`.execute(deps.db);
    return seeded;
  },
  async targets() {
    return [];
  },
  async mixes(_server, seeded) {
    return [realisticMix(seeded, { minRatio: 0.25, maxP99Ms: 10, minTwoNodeRatio: 1.6 })];
  },
};

export default scenario;
