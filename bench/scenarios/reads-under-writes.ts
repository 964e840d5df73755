// Issue 20: the foundation reads while 100 issues a second are created through the API (in a
// project the reads do not touch). A diagnostic, as foundation.ts.
import type { BenchScenario } from '../scenario.js';
import { startIssueStream } from '../write-stream.js';
import { foundationTargets, seedFoundation } from './foundation.js';

export const scenario: BenchScenario = {
  name: 'reads-under-writes',
  seed: seedFoundation,
  background: async (server, seeded) => startIssueStream(server, Number(seeded.writeProjectId), 100),
  async targets(_server, seeded) {
    return foundationTargets(seeded);
  },
};

export default scenario;
