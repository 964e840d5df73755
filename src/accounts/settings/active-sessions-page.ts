// /profile/active_sessions: where the user is signed in (address, browser, when), each but the
// current one with a Revoke button.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { localTime } from '../../platform/web/local-time.js';
import { csrfField, pageRoute } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { activeSessionsOf, revokeSession } from '../active-sessions.js';
import { currentUserRow, settingsTabs } from './shared.js';

const SIGNED_IN = { instance: 'log_in' } as const;

export function activeSessionsPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/profile/active_sessions', ability: SIGNED_IN,
    handler: async (context) => {
      const user = await currentUserRow(deps, context.user.id);
      const sessions = await activeSessionsOf(deps, context.user.id, context.session.idDigest);
      return page({
        title: 'Active sessions',
        body: html`${settingsTabs('/profile/active_sessions')}
          <p>The browsers signed in as you. Revoke one you do not recognise, then change your password.</p>
          <ul class="plain sessions">${sessions.map((session) => html`<li class="session-item">
            <h3>${session.ipAddress ?? 'Unknown address'} ${session.current ? html`<span class="badge">This is your current session</span>` : ''}</h3>
            <p class="wrap-anywhere muted">${session.userAgent ?? 'Unknown browser'}</p>
            <p>Signed in ${localTime(session.createdAt, user.time_zone)} · last used ${localTime(session.lastSeenAt, user.time_zone)}</p>
            ${session.current ? '' : html`<form method="post" action="/profile/active_sessions/${session.publicId}/revoke" class="inline">${csrfField(context)}<button type="submit" class="danger">Revoke</button></form>`}
          </li>`)}</ul>`,
      });
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/active_sessions/:id/revoke', ability: SIGNED_IN,
    handler: async (context) => {
      const revoked = await revokeSession(deps, context.user.id, String(context.params.id));
      return redirect('/profile/active_sessions', revoked ? 'The session was revoked.' : 'That session had already ended.');
    },
  });
}
