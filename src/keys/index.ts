// SSH keys of users, deploy keys and deploy tokens (issue 37): the API, the profile pages, the deploy settings pages, and the e-mail about keys.
import type { Feature } from '../platform/feature.js';
import { daily, scheduleOnce } from '../platform/jobs/daily.js';
import { JOB_NOTIFY_KEY_EXPIRY, notifyKeyExpiry } from './notify-key-expiry.js';
import { keysRoutes } from './routes.js';
import { deployKeysRoutes } from './deploy-keys-routes.js';
import { deployTokensRoutes } from './deploy-tokens-routes.js';
import { gpgKeysRoutes } from './gpg-keys-routes.js';
import { keyPages } from './pages.js';
import { gpgKeyPages } from './gpg-key-pages.js';
import { deployPages } from './deploy-pages/index.js';
import { backfillGpgSubkeys } from './backfill-gpg-subkeys.js';

export const keysFeature: Feature = {
  name: 'keys',
  routes(app, deps) {
    keysRoutes(app, deps);
    deployKeysRoutes(app, deps);
    deployTokensRoutes(app, deps);
    gpgKeysRoutes(app, deps);
    keyPages(app, deps);
    gpgKeyPages(app, deps);
    deployPages(app, deps);
  },
  jobs: {
    [JOB_NOTIFY_KEY_EXPIRY]: daily(JOB_NOTIFY_KEY_EXPIRY, async (deps) => {
      deps.log.info(await notifyKeyExpiry(deps), 'SSH key expiry e-mails queued');
    }),
  },
  async onStart(deps) {
    await scheduleOnce(deps, JOB_NOTIFY_KEY_EXPIRY, deps.clock.now() + 60_000, { orRunning: true });
    await backfillGpgSubkeys(deps);
  },
};
