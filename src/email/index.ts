// Outgoing e-mail: an outbox filled in the transaction of the action that causes a message, delivered
// by the job worker over SMTP (KILN_SMTP_URL) or written as .eml files, an admin page of it, and its
// retention (KILN_MAIL_RETENTION_DAYS, a daily job).
import type { Feature } from '../platform/feature.js';
import { deliverEmails, closeTransport } from './deliver-emails.js';
import { JOB_DELIVER_EMAILS } from './queue-emails.js';
import { emailAdminPages } from './admin-pages.js';
import { PRUNE_OUTBOX_JOB, pruneOutbox } from './prune-outbox.js';
import { daily, scheduleOnce } from '../platform/jobs/daily.js';

export const emailFeature: Feature = {
  name: 'email',
  routes(app, deps) {
    emailAdminPages(app, deps);
    // Pooled SMTP connections are closed with the app (kiln.close() stops the worker first).
    app.addHook('onClose', async () => closeTransport(deps));
  },
  jobs: {
    [JOB_DELIVER_EMAILS]: deliverEmails,
    [PRUNE_OUTBOX_JOB]: daily(PRUNE_OUTBOX_JOB, async (deps) => {
      const result = await pruneOutbox(deps);
      if (result.emailsPruned > 0) deps.log.info(result, 'outbox pruned');
    }),
  },
  async onStart(deps) {
    await scheduleOnce(deps, PRUNE_OUTBOX_JOB, deps.clock.now(), { orRunning: true });
  },
};
