// Users' GPG keys (GitLab's lib/api/users.rb): your own under /user/gpg_keys, anyone's (public, as
// their SSH keys are) under /users/:id/gpg_keys, adding and removing others' for administrators.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { findUser } from '../accounts/api.js';
import { gpgKeyEntity } from './entities.js';
import { createGpgKey } from './create-gpg-key.js';
import { deleteGpgKey } from './delete-gpg-key.js';

const TAGS = ['gpg_keys'];

export function gpgKeysRoutes(app: FastifyInstance, deps: Deps): void {
  const keysOf = (userId: number) => deps.db.selectFrom('gpg_keys').selectAll().where('user_id', '=', userId).orderBy('id');
  const findKey = async (userId: number, keyId: number) => {
    const row = await keysOf(userId).where('id', '=', keyId).executeTakeFirst();
    if (!row) throw new NotFoundError('GPG Key');
    return row;
  };
  const removeKey = (userId: number, keyId: number) => deleteGpgKey(deps, userId, keyId);

  apiRoute(app, deps, {
    method: 'GET', url: '/user/gpg_keys', summary: 'Your GPG keys', tags: TAGS, paginated: true, extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    handler: async ({ actor, paginate }) => (await paginate(keysOf(actor.user.id))).map(gpgKeyEntity),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user/gpg_keys/:key_id', summary: 'One of your GPG keys', tags: TAGS, extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    params: { key_id: p.integer.required() },
    handler: async ({ actor, params }) => gpgKeyEntity(await findKey(actor.user.id, params.key_id)),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/user/gpg_keys', summary: 'Add a GPG key to your account', tags: TAGS,
    ability: { instance: 'log_in' },
    params: { key: p.string.required({ max: 100_000 }) },
    handler: async ({ actor, params }) => gpgKeyEntity(await createGpgKey(deps, actor.user.id, params.key)),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/user/gpg_keys/:key_id', summary: 'Remove one of your GPG keys', tags: TAGS,
    ability: { instance: 'log_in' },
    params: { key_id: p.integer.required() },
    handler: async ({ actor, params }) => {
      await removeKey(actor.user.id, params.key_id);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/gpg_keys', summary: "A user's GPG keys", tags: TAGS, paginated: true, auth: 'optional', extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required() },
    handler: async ({ params, paginate }) => (await paginate(keysOf(Number((await findUser(deps, params.id)).id)))).map(gpgKeyEntity),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/gpg_keys/:key_id', summary: "One of a user's GPG keys", tags: TAGS, auth: 'optional', extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required(), key_id: p.integer.required() },
    handler: async ({ params }) => gpgKeyEntity(await findKey(Number((await findUser(deps, params.id)).id), params.key_id)),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/gpg_keys', summary: 'Add a GPG key to a user (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), key: p.string.required({ max: 100_000 }) },
    handler: async ({ params }) => gpgKeyEntity(await createGpgKey(deps, Number((await findUser(deps, params.id)).id), params.key)),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:id/gpg_keys/:key_id', summary: "Remove a user's GPG key (administrators)", tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), key_id: p.integer.required() },
    handler: async ({ params }) => {
      await removeKey(Number((await findUser(deps, params.id)).id), params.key_id);
      return undefined;
    },
  });
}
