// Issue 20: the foundation reads on PostgreSQL (one node, a fresh database on BENCH_POSTGRES_URL's
// server). Multi-node throughput is argued from the statements and round trips per request the
// table reports. A diagnostic, as foundation.ts.
import type { BenchScenario } from '../scenario.js';
import { foundationTargets, seedFoundation } from './foundation.js';

export const scenario: BenchScenario = {
  name: 'foundation-postgres',
  database: 'postgres',
  seed: seedFoundation,
  async targets(_server, seeded) {
    return foundationTargets(seeded);
  },
};

export default scenario;
