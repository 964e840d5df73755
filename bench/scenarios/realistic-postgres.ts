// The realistic mix (bench/scenarios/realistic.ts) on PostgreSQL: one node against the replay
// baseline, then two nodes on the one database, their rates added, against one node in the same rounds.
import type { BenchScenario } from '../scenario.js';
import { realisticMix, seedRealistic } from './realistic.js';

export const scenario: BenchScenario = {
  name: 'realistic-postgres',
  database: 'postgres',
  nodes: 2,
  seed: seedRealistic,
  async targets() {
    return [];
  },
  async mixes(_server, seeded) {
    return [realisticMix(seeded, { minRatio: 0.25, maxP99Ms: 10, minTwoNodeRatio: 1.6 })];
  },
};

export default scenario;
