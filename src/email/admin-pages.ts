// The administrator's outbox: the latest messages with their delivery state (a dead one is mail that
// needs an operator: its last error says why), and one message as it was composed.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { canOnInstance } from '../platform/auth/policies/policy.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { isoTime } from '../platform/clock.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { findEmail, latestEmails } from './outbox-finder.js';

const SHOWN = 200;

function requireAdmin(user: AuthUser): void {
  // The page kit resolves only project abilities: the instance one is asked here.
  if (!canOnInstance(user, 'admin_all_resources')) throw new ForbiddenError();
}

export function emailAdminPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET',
    url: '/admin/emails',
    ability: { instance: 'admin_all_resources' },
    handler: async ({ user, query }) => {
      requireAdmin(user);
      const state = query.state === 'queued' || query.state === 'sent' || query.state === 'dead' ? query.state : undefined;
      const emails = await latestEmails(deps, SHOWN, state);
      const where = deps.config.smtpUrl ? html`sent through the SMTP server of <code>KILN_SMTP_URL</code>` : html`written as .eml files to <code>${deps.config.dataDir}/mail</code> (no <code>KILN_SMTP_URL</code>)`;
      return page({
        title: 'E-mails',
        body: html`<p>Outgoing messages are ${where}. Filter: <a href="/admin/emails">all</a> · <a href="/admin/emails?state=queued">queued</a> · <a href="/admin/emails?state=dead">dead</a> · <a href="/admin/emails?state=sent">sent</a></p>
${
  emails.length
    ? html`<table id="emails"><thead><tr><th>ID</th><th>Queued</th><th>To</th><th>Subject</th><th>State</th><th>Tries</th><th>File</th><th>Last error</th></tr></thead><tbody>${emails.map(
        (email) => html`<tr data-email="${Number(email.id)}"><td><a href="/admin/emails/${Number(email.id)}">${Number(email.id)}</a></td><td>${isoTime(email.created_at)}</td><td>${email.to_address}</td><td>${email.subject}</td><td class="state">${email.state}</td><td>${email.attempts}</td><td>${email.file ?? ''}</td><td>${email.last_error ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No e-mail yet.</p>`
}`,
      });
    },
  });

  pageRoute(app, deps, {
    method: 'GET',
    url: '/admin/emails/:id',
    ability: { instance: 'admin_all_resources' },
    handler: async ({ user, params }) => {
      requireAdmin(user);
      if (!/^\d{1,15}$/.test(params.id)) throw new NotFoundError();
      const email = await findEmail(deps, Number(params.id));
      const headers = Object.entries(JSON.parse(email.headers) as Record<string, string>);
      return page({
        title: email.subject,
        body: html`<table id="email-headers"><tbody>
<tr><th>From</th><td>${email.from_address}</td></tr><tr><th>To</th><td>${email.to_address}</td></tr><tr><th>Message-ID</th><td>&lt;${email.message_id}&gt;</td></tr>
${headers.map(([name, value]) => html`<tr><th>${name}</th><td>${value}</td></tr>`)}
<tr><th>State</th><td class="state">${email.state}</td></tr><tr><th>Tries</th><td>${email.attempts}</td></tr><tr><th>Last error</th><td>${email.last_error ?? ''}</td></tr>
</tbody></table>
<h2>Text part</h2><pre id="email-text">${email.text_body}</pre>`,
      });
    },
  });
}
