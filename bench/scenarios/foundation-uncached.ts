// Issue 20: the foundation reads with the read cache off (KILN_READ_CACHE=false), which is what an
// instance whose cache a write just emptied runs at. Goals against the pre-serialised baseline.
import type { BenchScenario } from '../scenario.js';
import { foundationTargets, seedFoundation } from './foundation.js';

export const scenario: BenchScenario = {
  name: 'foundation-uncached',
  env: () => ({ KILN_READ_CACHE: 'false' }),
  seed: seedFoundation,
  async targets(_server, seeded) {
    return foundationTargets(seeded, [{ minPreRatio: 0.25 }, { minPreRatio: 0.15 }]);
  },
};

export default scenario;
