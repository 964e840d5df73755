// Administrators managing users: deletion (to the ghost user, or hard), block and unblock, deactivate
// and activate, ban and unban (GitLab's rules and messages), and who was active when.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { JsonText } from '../platform/http/json-text.js';
import { DAY_MS } from '../platform/clock.js';
import { findUser } from './lookup.js';
import { blockUser } from './block-user.js';
import { unblockUser } from './unblock-user.js';
import { deactivateUser } from './deactivate-user.js';
import { activateUser } from './activate-user.js';
import { banUser, unbanUser } from './ban-user.js';
import { approveUser } from './approve-user.js';
import { rejectUser } from './reject-user.js';
import { scheduleUserDeletion } from './schedule-user-deletion.js';
import { userActivity } from './user-entities.js';
import { userActivitiesQuery } from './user-activities-finder.js';
import { deleteIdentity } from './identities.js';

/** What Grape renders for a `break` out of an endpoint: 201 with a JSON null. */
const NOTHING = new JsonText(null);

export function userAdminRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:id', summary: "Delete a user; their contributions pass to the ghost user unless hard_delete (administrators)", tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), hard_delete: p.boolean.optional({ description: "Delete the user's contributions and the groups only they own" }) },
    handler: async ({ params, actor }) => {
      await scheduleUserDeletion(deps, actor, await findUser(deps, params.id), params.hard_delete ?? false);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:id/identities/:provider', summary: "Remove a user's external identity at a provider (administrators)", tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), provider: p.string.required() },
    handler: async ({ params }) => {
      await deleteIdentity(deps.db, Number((await findUser(deps, params.id)).id), params.provider);
      return undefined;
    },
  });

  const actions = {
    block: (actor, user) => blockUser(deps, actor, user),
    unblock: (_actor, user) => unblockUser(deps, user),
    deactivate: (_actor, user) => deactivateUser(deps, user),
    activate: (_actor, user) => activateUser(deps, user),
    ban: (actor, user) => banUser(deps, actor, user),
    unban: (_actor, user) => unbanUser(deps, user),
  } satisfies Record<string, (actor: Parameters<typeof blockUser>[1], user: Parameters<typeof blockUser>[2]) => Promise<boolean | null>>;
  for (const [action, run] of Object.entries(actions)) {
    apiRoute(app, deps, {
      method: 'POST', url: `/users/:id/${action}`, summary: `${action[0].toUpperCase()}${action.slice(1)} a user (administrators)`, tags: ['users'],
      ability: { instance: 'admin_all_resources' },
      params: { id: p.integer.required() },
      handler: async ({ params, actor }) => {
        const outcome = await run(actor, await findUser(deps, params.id));
        return outcome === null ? NOTHING : outcome;
      },
    });
  }

  // Sign-ups awaiting approval (docs/accounts.md): GitLab answers `{"message": "Success"}`, 201 to an
  // approval and 200 to a rejection, and 409 for a user who is not waiting.
  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/approve', summary: 'Approve a sign-up awaiting approval (administrators)', tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      await approveUser(deps, await findUser(deps, params.id));
      return { message: 'Success' };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/reject', summary: 'Reject and delete a sign-up awaiting approval (administrators)', tags: ['users'], status: 200,
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required() },
    handler: async ({ params, actor }) => {
      await rejectUser(deps, actor, await findUser(deps, params.id));
      return { message: 'Success' };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user/activities', summary: 'The last day each user was active, since a date (administrators)', tags: ['users'], paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { from: p.date.optional({ description: 'YYYY-MM-DD; six months ago by default' }) },
    handler: async ({ params, paginate }) => {
      const from = params.from ?? new Date(deps.clock.now() - 182 * DAY_MS).toISOString().slice(0, 10);
      return (await paginate(userActivitiesQuery(deps, from))).map(userActivity);
    },
  });
}
