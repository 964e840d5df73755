// Impersonation (GitLab's Admin::ImpersonationsController): an administrator signs in as an active
// user from that user's admin page to see what they see. The browser gets a new session (new cookie)
// for the user that names the administrator, so every page shows the banner; "Stop impersonating"
// swaps it for a fresh session of the administrator and returns to the user's admin page. Both are
// written to the application log as audit lines (GitLab CE logs them the same way). The API's
// impersonation tokens are access-tokens-routes.ts.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { pageRoute, type PageContext } from '../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../platform/web/page.js';
import { NotFoundError } from '../platform/errors.js';
import { findUserRow } from './lookup.js';
import { endSession, startSession } from './sessions.js';
import { userUrl } from './admin-user-page.js';

/** Why a user cannot be impersonated, as GitLab words it; null when they can. */
function refusal(context: PageContext, target: { id: number | string; state: string; user_type: string }): string | null {
  if (context.session.impersonator) return 'You are already impersonating a user; stop impersonating first';
  if (Number(target.id) === context.user.id) return 'You cannot impersonate yourself';
  if (target.user_type !== 'human') return 'You cannot impersonate an internal user';
  if (target.state === 'blocked' || target.state === 'banned') return 'You cannot impersonate a blocked user';
  if (target.state !== 'active') return 'You cannot impersonate a user who cannot log in';
  return null;
}

async function startImpersonating(context: PageContext): Promise<PageOutcome> {
  const { deps } = context;
  const target = await findUserRow(deps, context.params.username);
  if (!target) throw new NotFoundError();
  const refused = refusal(context, target);
  if (refused) return redirect(userUrl(target.username), refused);
  const admin = { id: context.user.id, username: context.user.username };
  await startSession(deps, context.request, context.reply, { userId: Number(target.id), impersonator: admin });
  deps.log.info({ audit: 'impersonation_started', author_id: admin.id, target_id: Number(target.id), ip: context.request.ip }, `User ${admin.username} has started impersonating ${target.username}`);
  return redirect('/', `You are now impersonating ${target.username}`);
}

async function stopImpersonating(context: PageContext): Promise<PageOutcome> {
  const { deps } = context;
  const impersonator = context.session.impersonator;
  if (!impersonator) throw new NotFoundError();
  const impersonated = context.user.username;
  const admin = await deps.db.selectFrom('users').select(['id', 'username', 'state', 'admin']).where('id', '=', impersonator.id).executeTakeFirst();
  deps.log.info({ audit: 'impersonation_stopped', author_id: impersonator.id, target_id: context.user.id, ip: context.request.ip }, `User ${impersonator.username} has stopped impersonating ${impersonated}`);
  // An administrator blocked or demoted meanwhile does not get a session back: the browser is signed out.
  if (!admin || admin.state !== 'active' || !admin.admin) {
    await endSession(deps, context.request, context.reply);
    return redirect('/users/sign_in');
  }
  await startSession(deps, context.request, context.reply, { userId: Number(admin.id) });
  return redirect(userUrl(impersonated));
}

export function impersonationPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'POST', url: '/admin/users/:username/impersonate', ability: { instance: 'admin_all_resources' }, handler: startImpersonating });
  // Reached while signed in as the impersonated user (not an administrator): the session's own
  // impersonator is what allows it.
  pageRoute(app, deps, { method: 'POST', url: '/admin/impersonation', ability: { instance: 'log_in' }, handler: stopImpersonating });
}
