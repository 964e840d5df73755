// Issue 20: the foundation reads with the read cache off (KILN_READ_CACHE=false), which is what an
// instance whose cache a write just emptied runs at. A diagnostic, as foundation.ts.
import type { BenchScenario } from '../scenario.js';
import { foundationTargets, seedFoundation } from './foundation.js';

export const scenario: BenchScenario = {
  name: 'foundation-uncached',
  env: () => ({ KILN_READ_CACHE: 'false' }),
  seed: seedFoundation,
  async targets(_server, seeded) {
    return foundationTargets(seeded);
  },
};

export default scenario;
