import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { inTransaction } from '../platform/db/database.js';
import { p, requireAllOrNone } from '../platform/http/params.js';
import { createUser } from './create-user.js';
import { updateUser } from './update-user.js';
import { checkNotificationEmail, setNotificationEmail } from './set-notification-email.js';
import { ForbiddenError, ParamError } from '../platform/errors.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { findUser, type UserRow } from './lookup.js';
import { usersQuery } from './users-finder.js';
import { customAttributeFilter, customAttributesOf, ownersWith, showsCustomAttributes } from './custom-attribute-filters.js';
import { avatarUrl, userBasic, userPrivate, userProfile, USER_ENTITY, USER_PRIVATE_ENTITY } from './user-entities.js';
import { JsonText } from '../platform/http/json-text.js';
import { avatarChange } from './avatar-change.js';
import { changeUserAvatar } from './change-user-avatar.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from '../platform/version.js';
import { identitiesOf } from './identities.js';
import { personalProjectCounts } from './personal-projects.js';

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
  pronouns: p.string.optional(),
  avatar: p.json.optional({ description: 'An image file (multipart/form-data); empty to remove the avatar' }),
  provider: p.string.optional({ description: 'An external authentication provider; with extern_uid' }),
  extern_uid: p.string.optional({ description: "The user's id at that provider; with provider" }),
  projects_limit: p.integer.optional({ description: 'How many projects the personal namespace may hold; 0 for none' }),
};

const IDENTITY_PARAMS = ['extern_uid', 'provider'];

/** The `avatar` parameter checked (type and size as GitLab's AvatarUploader), or undefined when absent. */
function avatarParam(input: Record<string, unknown>) {
  return input.avatar === undefined ? undefined : avatarChange(input.avatar);
}

export function usersRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  const withIdentities = async (user: UserRow) => {
    const ids = [Number(user.id)];
    const [identities, personalProjects] = await Promise.all([identitiesOf(deps.db, ids), personalProjectCounts(deps.db, ids)]);
    return userPrivate(base, user, { identities: identities.get(ids[0]), personalProjects: personalProjects.get(ids[0]) ?? 0 });
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/version', summary: 'Version of the GitLab API this server speaks', tags: ['metadata'],
    ability: { instance: 'log_in' },
    handler: async () => ({ version: GITLAB_COMPAT_VERSION, revision: `kiln-${KILN_VERSION}`, kas: { enabled: false, externalUrl: null, version: null }, enterprise: deps.config.tier !== 'free' }),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user', summary: 'The authenticated user', tags: ['users'], extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    handler: async ({ actor }) => JsonText.of(USER_PRIVATE_ENTITY.serialize(await withIdentities(await findUser(deps, actor.user.id)))),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users', summary: 'List users', tags: ['users'], paginated: true, extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' }, auth: 'optional',
    params: {
      username: p.string.optional(), search: p.string.optional(), active: p.boolean.optional(), blocked: p.boolean.optional(),
      extern_uid: p.string.optional({ description: 'With provider: the user with that external identity (administrators)' }), provider: p.string.optional(),
    },
    handler: async ({ params, principal, paginate, input }) => {
      requireAllOrNone(input, IDENTITY_PARAMS);
      const viewer = principal?.user ?? null;
      // Looking users up by external identity is for administrators only (lib/api/users.rb).
      if (params.extern_uid && !canOnInstance(viewer, 'admin_all_resources')) throw new ForbiddenError();
      // Anonymous callers may only look one user up by username, never list them all (lib/api/users.rb).
      if (!principal && !params.username) throw new ForbiddenError('Not authorized to access /api/v4/users');
      let query = usersQuery(deps, viewer, params);
      for (const owners of ownersWith(deps.db, 'user_id', customAttributeFilter(input, viewer))) query = query.where('id', 'in', owners);
      const rows = await paginate(query);
      const ids = rows.map((row) => Number(row.id));
      const attributes = showsCustomAttributes(input, viewer) ? await customAttributesOf(deps.db, 'user_id', ids) : null;
      const admin = canOnInstance(viewer, 'admin_all_resources');
      const [identities, personalProjects] = admin ? await Promise.all([identitiesOf(deps.db, ids), personalProjectCounts(deps.db, ids)]) : [null, null];
      return rows.map((row) => {
        const entity = identities && personalProjects ? userPrivate(base, row, { identities: identities.get(Number(row.id)), personalProjects: personalProjects.get(Number(row.id)) ?? 0 }) : userBasic(base, row);
        return attributes ? { ...entity, custom_attributes: attributes.get(Number(row.id)) } : entity;
      });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id', summary: 'One user by id or username', tags: ['users'], extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required() },
    handler: async ({ params, actor, input }) => {
      const user = await findUser(deps, params.id);
      const seesPrivate = canOnInstance(actor.user, 'admin_all_resources') || actor.user.id === user.id;
      if (!showsCustomAttributes(input, actor.user)) {
        // Written by the entities' compiled serialisers (the answer every client reads of a user).
        return JsonText.of(seesPrivate ? USER_PRIVATE_ENTITY.serialize(await withIdentities(user)) : USER_ENTITY.serialize(userProfile(base, user)));
      }
      const entity = seesPrivate ? await withIdentities(user) : userProfile(base, user);
      return { ...entity, custom_attributes: (await customAttributesOf(deps.db, 'user_id', [Number(user.id)])).get(Number(user.id)) };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users', summary: 'Create a user (administrators)', tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { ...profileFields, username: p.string.required(), name: p.string.required(), email: p.string.required() },
    handler: async ({ params, input }) => {
      requireAllOrNone(input, IDENTITY_PARAMS);
      return withIdentities(await createUser(deps, { ...params, avatar: avatarParam(input) }));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/users/:id', summary: 'Change a user (administrators)', tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), ...profileFields, notification_email: p.string.optional({ description: 'One of the user\'s confirmed addresses' }) },
    handler: async ({ params, input }) => {
      requireAllOrNone(input, IDENTITY_PARAMS);
      const { id, notification_email: notificationEmail, ...fields } = params;
      const changes = { ...fields, avatar: avatarParam(input) };
      // Checked before anything is stored, so a refused address changes nothing.
      if (notificationEmail) await checkNotificationEmail(deps, id, notificationEmail, changes.email);
      const user = await updateUser(deps, id, changes);
      if (notificationEmail !== undefined) await setNotificationEmail(deps, user, notificationEmail);
      return withIdentities(user);
    },
  });

  // GitLab 17's PUT /user/avatar: the caller's own avatar, answered as Entities::Avatar.
  apiRoute(app, deps, {
    method: 'PUT', url: '/user/avatar', summary: "Set the authenticated user's avatar", tags: ['users'],
    ability: { instance: 'log_in' },
    params: { avatar: p.json.optional({ description: 'An image file (multipart/form-data)' }) },
    handler: async ({ actor, input }) => {
      if (input.avatar === undefined) throw new ParamError('avatar is missing');
      const file = avatarChange(input.avatar);
      if (!file) throw new ParamError('avatar is invalid');
      const filename = await inTransaction(deps.db, (trx) => changeUserAvatar(trx, actor.user.id, file, deps.clock.now()));
      return { avatar_url: avatarUrl(base, { id: actor.user.id, username: actor.user.username, avatar: filename }) };
    },
  });
}
