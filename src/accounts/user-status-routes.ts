// A user's status (doc/api/users.md: "Get the status of the current user", "Set the status of the
// current user", "Get the status of a user"): the caller's own, read and set; anyone's, read by id or
// username by whoever may see users.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { findUser } from './lookup.js';
import { userStatusEntity, userStatusOf } from './user-status.js';
import { AVAILABILITIES, CLEAR_STATUS_AFTER, setUserStatus } from './set-user-status.js';

const TAGS = ['users'];

export function userStatusRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/user/status', summary: "The current user's status", tags: TAGS, extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    handler: async ({ actor }) => userStatusEntity(await userStatusOf(deps, actor.user.id)),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/user/status', summary: "Set the current user's status (cleared when emoji, message and availability are all empty)", tags: TAGS, status: 200,
    ability: { instance: 'log_in' },
    params: {
      emoji: p.string.optional({ max: 128 }),
      message: p.string.optional({ max: 1000 }),
      availability: p.string.optional({ values: AVAILABILITIES, allowBlank: true }),
      clear_status_after: p.string.optional({ values: Object.keys(CLEAR_STATUS_AFTER), allowBlank: true }),
    },
    handler: async ({ params, input, actor }) => {
      const clearStatusAfter = 'clear_status_after' in input ? (params.clear_status_after ?? null) : undefined;
      const status = await setUserStatus(deps, actor.user.id, {
        emoji: params.emoji,
        message: params.message,
        availability: params.availability as (typeof AVAILABILITIES)[number] | undefined,
        clearStatusAfter,
      });
      return userStatusEntity(status);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/status', summary: "A user's status, by id or username", tags: TAGS, extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required() },
    handler: async ({ params }) => userStatusEntity(await userStatusOf(deps, Number((await findUser(deps, params.id)).id))),
  });
}
