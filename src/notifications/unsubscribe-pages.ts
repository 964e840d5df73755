// The List-Unsubscribe link of issue and merge request e-mail. GET shows what it unsubscribes from and a button (mail
// scanners follow links: a GET never changes anything); POST unsubscribes, from that button or as the
// one-click POST of RFC 8058 that mail clients send (`List-Unsubscribe=One-Click`). The signed token
// is the credential: no sign-in, and no CSRF token (whoever holds the link may use it, nothing more).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { pageRoute, renderPage } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { NotFoundError } from '../platform/errors.js';
import { UNSUBSCRIBE_PATH, verifyUnsubscribeToken } from './unsubscribe-link.js';
import { setSubscription } from './subscriptions.js';
import { subscribableWithReference } from './unsubscribe-finder.js';

async function subjectOf(deps: Deps, token: string) {
  const verified = verifyUnsubscribeToken(deps, token);
  if (!verified) return null;
  const found = await subscribableWithReference(deps, verified.type, verified.id);
  return found && { userId: verified.userId, ...found };
}

export function unsubscribePages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET',
    url: `${UNSUBSCRIBE_PATH}/:token`,
    ability: { credential: 'signed_link' },
    auth: 'optional',
    handler: async ({ params }) => {
      const subject = await subjectOf(deps, params.token);
      if (!subject) throw new NotFoundError();
      // The title is not shown: the link may have been forwarded to someone who cannot read it.
      return page({
        title: 'Unsubscribe',
        body: html`<p>Stop e-mail notifications about <strong>${subject.reference}</strong>?</p>
<form method="post" action="${UNSUBSCRIBE_PATH}/${params.token}"><button type="submit" id="unsubscribe">Unsubscribe</button></form>`,
      });
    },
  });

  app.post(`${UNSUBSCRIBE_PATH}/:token`, { config: { ability: { credential: 'signed_link' } } }, async (request, reply) => {
    const subject = await subjectOf(deps, (request.params as { token: string }).token);
    if (!subject) return renderPage(reply, 404, 'Page not found', html`<p>This unsubscribe link is not valid.</p>`, null);
    await setSubscription(deps, subject.userId, subject.subject, false, { always: true });
    return renderPage(reply, 200, 'Unsubscribed', html`<p id="unsubscribed">You have been unsubscribed from <strong>${subject.reference}</strong>. You will get no more e-mail about it unless you are mentioned.</p>`, null);
  });
}
