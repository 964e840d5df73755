// Issue 20: reads-under-writes on PostgreSQL (one node): the reads of the foundation while 100
// issues a second are created through the API. No goal of its own in the issue: reported.
import type { BenchScenario } from '../scenario.js';
import { startIssueStream } from '../write-stream.js';
import { foundationTargets, seedFoundation } from './foundation.js';

export const scenario: BenchScenario = {
  name: 'reads-under-writes-postgres',
  database: 'postgres',
  seed: seedFoundation,
  background: async (server, seeded) => startIssueStream(server, Number(seeded.writeProjectId), 100),
  async targets(_server, seeded) {
    return foundationTargets(seeded);
  },
};

export default scenario;
