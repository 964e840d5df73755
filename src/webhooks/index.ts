// Outgoing events (issue 18): project, group and system webhooks and the Slack-compatible chat
// integration. Domain events become delivery jobs in the producer's transaction (listeners.ts); the
// worker builds GitLab's payloads and posts them (deliver-hook.ts, outbound.ts).
import type { Feature } from '../platform/feature.js';
import { daily, scheduleOnce } from '../platform/jobs/daily.js';
import { JOB_DELIVER_EVENT, JOB_DELIVER_HOOK, JOB_NOTIFY_CHAT, listenForHooks } from './listeners.js';
import { deliverHookJob } from './deliver-hook.js';
import { deliverEventJob } from './deliver-event.js';
import { listenForSystemHooks } from './system-listeners.js';
import { hooksRoutes } from './routes.js';
import { slackRoutes } from './slack-routes.js';
import { webhookPages } from './pages.js';
import { systemHookPages } from './system-hooks-page.js';
import { deliverChat } from './deliver-chat.js';
import { JOB_PRUNE_HOOK_LOGS, pruneHookLogs } from './prune-logs.js';

export const webhooksFeature: Feature = {
  name: 'webhooks',
  setup(deps) {
    listenForHooks(deps);
    listenForSystemHooks(deps);
  },
  routes(app, deps) {
    hooksRoutes(app, deps);
    slackRoutes(app, deps);
    webhookPages(app, deps);
    systemHookPages(app, deps);
  },
  jobs: {
    [JOB_DELIVER_EVENT]: deliverEventJob,
    [JOB_DELIVER_HOOK]: deliverHookJob,
    [JOB_NOTIFY_CHAT]: deliverChat,
    [JOB_PRUNE_HOOK_LOGS]: daily(JOB_PRUNE_HOOK_LOGS, async (deps) => {
      deps.log.info({ pruned: await pruneHookLogs(deps) }, 'web hook logs pruned');
    }),
  },
  async onStart(deps) {
    await scheduleOnce(deps, JOB_PRUNE_HOOK_LOGS, deps.clock.now() + 60_000, { orRunning: true });
  },
};
