import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { createUser } from './create-user.js';
import { setUserState, updateUser } from './update-user.js';
import { findUser, requireAdmin } from './lookup.js';
import { userBasic, userPrivate, userProfile } from './user-entities.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from '../platform/version.js';

const profileFields = {
  name: p.string.optional(),
  email: p.string.optional(),
  password: p.string.optional(),
  admin: p.boolean.optional(),
  bio: p.string.optional(),
  location: p.string.optional(),
  website_url: p.string.optional(),
  organization: p.string.optional(),
  public_email: p.string.optional(),
  private_profile: p.boolean.optional(),
};

export function usersRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: '/version', summary: 'Version of the GitLab API this server speaks', tags: ['metadata'],
    handler: async () => ({ version: GITLAB_COMPAT_VERSION, revision: `kiln-${KILN_VERSION}`, kas: { enabled: false, externalUrl: null, version: null }, enterprise: deps.config.tier !== 'free' }),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user', summary: 'The authenticated user', tags: ['users'], extraScopes: ['read_user'],
    handler: async ({ actor }) => userPrivate(base, await findUser(deps, actor.user.id)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users', summary: 'List users', tags: ['users'], paginated: true, extraScopes: ['read_user'],
    params: { username: p.string.optional(), search: p.string.optional(), active: p.boolean.optional(), blocked: p.boolean.optional() },
    handler: async ({ params, actor, paginate }) => {
      let query = deps.db.selectFrom('users').selectAll().orderBy('id', 'desc');
      if (params.username) query = query.where('username_lower', '=', params.username.toLowerCase());
      if (params.search) {
        const pattern = `%${params.search.toLowerCase()}%`;
        query = query.where((eb) => eb.or([eb('username_lower', 'like', pattern), eb('email_lower', '=', params.search!.toLowerCase())]));
      }
      if (params.active) query = query.where('state', '=', 'active');
      if (params.blocked) query = query.where('state', '=', 'blocked');
      const rows = await paginate(query);
      return rows.map((row) => (actor.user.admin ? userPrivate(base, row) : userBasic(base, row)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id', summary: 'One user by id or username', tags: ['users'], extraScopes: ['read_user'],
    params: { id: p.string.required() },
    handler: async ({ params, actor }) => {
      const user = await findUser(deps, params.id);
      return actor.user.admin || actor.user.id === user.id ? userPrivate(base, user) : userProfile(base, user);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users', summary: 'Create a user (administrators)', tags: ['users'],
    params: { ...profileFields, username: p.string.required(), name: p.string.required(), email: p.string.required() },
    handler: async ({ params, actor }) => {
      requireAdmin(actor);
      return userPrivate(base, await createUser(deps, params));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/users/:id', summary: 'Change a user (administrators)', tags: ['users'],
    params: { id: p.integer.required(), ...profileFields },
    handler: async ({ params, actor }) => {
      requireAdmin(actor);
      const { id, ...changes } = params;
      return userPrivate(base, await updateUser(deps, id, changes));
    },
  });

  for (const [action, state] of [['block', 'blocked'], ['unblock', 'active']] as const) {
    apiRoute(app, deps, {
      method: 'POST', url: `/users/:id/${action}`, summary: `${action[0].toUpperCase()}${action.slice(1)} a user (administrators)`, tags: ['users'],
      params: { id: p.integer.required() }, status: 201,
      handler: async ({ params, actor }) => {
        requireAdmin(actor);
        await findUser(deps, params.id);
        await setUserState(deps, params.id, state);
        return true;
      },
    });
  }
}
