// Outgoing e-mail: an outbox filled in the transaction of the action that causes a message, delivered
// by the job worker over SMTP (KILN_SMTP_URL) or written as .eml files, and an admin page of it.
import type { Feature } from '../platform/feature.js';
import { deliverEmails, closeTransport } from './deliver-emails.js';
import { JOB_DELIVER_EMAILS } from './queue-emails.js';
import { emailAdminPages } from './admin-pages.js';

export const emailFeature: Feature = {
  name: 'email',
  routes(app, deps) {
    emailAdminPages(app, deps);
    // Pooled SMTP connections are closed with the app (kiln.close() stops the worker first).
    app.addHook('onClose', async () => closeTransport(deps));
  },
  jobs: { [JOB_DELIVER_EMAILS]: deliverEmails },
};
