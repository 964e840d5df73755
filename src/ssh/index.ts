// Git over SSH (issue 37): the server itself is started by `kiln serve` (api.ts); the feature adds the
// help page with the host keys' fingerprints.
import type { Feature } from '../platform/feature.js';
import { helpPages } from './help-page.js';

export const sshFeature: Feature = {
  name: 'ssh',
  routes(app, deps) {
    helpPages(app, deps);
  },
};
