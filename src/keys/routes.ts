// Users' SSH keys (GitLab's lib/api/users.rb and lib/api/keys.rb): your own under /user/keys, anyone's
// under /users/:id/keys (adding and removing for administrators), and the administrators' look-up by
// id or fingerprint.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError, ParamError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { findUser, personalProjectCounts, userPrivate, type UserRow } from '../accounts/api.js';
import { deployKeyEntity, deployKeysProjectRecord, sshKeyEntity, type KeyRow } from './entities.js';
import { deployKeyLinks } from './deploy-keys-finder.js';
import type { KeyUsageType } from '../platform/db/tables/keys.js';
import { createKey } from './create-key.js';
import { deleteKey } from './delete-key.js';
import { KEY_USAGE_TYPES, expiryOf } from './validate-key.js';
import { findKeyById, findKeyByMd5, findKeyBySha256, findUserKey, userKeysQuery } from './keys-finder.js';

const keyParams = {
  title: p.string.required(),
  key: p.string.required({ max: 100_000 }),
  expires_at: p.string.optional(),
  usage_type: p.string.optional({ values: KEY_USAGE_TYPES }),
};

function expiresAt(value: string | undefined): number | null {
  const expiry = expiryOf(value);
  if (expiry === undefined) throw new ParamError('expires_at is invalid');
  return expiry;
}

/** A fingerprint as GET /keys takes it: `SHA256:…` (any case of the prefix) or MD5's colon pairs. */
async function byFingerprint(deps: Deps, fingerprint: string): Promise<KeyRow | undefined> {
  if (/^sha256:/i.test(fingerprint)) return findKeyBySha256(deps, fingerprint.slice(7).replace(/=+$/, ''));
  if (/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/i.test(fingerprint)) return findKeyByMd5(deps, fingerprint.toLowerCase());
  throw new ApiError(400, { message: 'Failed to return the key' });
}

export function keysRoutes(app: FastifyInstance, deps: Deps): void {
  const host = () => new URL(deps.config.baseUrl).hostname;
  const present = (row: KeyRow, name: string) => sshKeyEntity(row, name, host());

  apiRoute(app, deps, {
    method: 'GET', url: '/user/keys', summary: 'Your SSH keys', tags: ['keys'], paginated: true, extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    handler: async ({ actor, paginate }) => (await paginate(userKeysQuery(deps, actor.user.id))).map((row) => present(row, actor.user.name)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user/keys/:key_id', summary: 'One of your SSH keys', tags: ['keys'], extraScopes: ['read_user'],
    ability: { instance: 'log_in' },
    params: { key_id: p.integer.required() },
    handler: async ({ params, actor }) => {
      const row = await findUserKey(deps, actor.user.id, params.key_id);
      if (!row) throw new NotFoundError('Key');
      return present(row, actor.user.name);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/user/keys', summary: 'Add an SSH key to your account', tags: ['keys'],
    ability: { instance: 'log_in' },
    params: keyParams,
    handler: async ({ params, actor }) => {
      const user = await findUser(deps, actor.user.id);
      const row = await createKey(deps, { id: Number(user.id), name: user.name, email: user.email }, {
        title: params.title, key: params.key, expiresAt: expiresAt(params.expires_at), usageType: (params.usage_type ?? 'auth_and_signing') as KeyUsageType,
      });
      return present(row, user.name);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/user/keys/:key_id', summary: 'Remove one of your SSH keys', tags: ['keys'],
    ability: { instance: 'log_in' },
    params: { key_id: p.integer.required() },
    handler: async ({ params, actor }) => {
      await deleteKey(deps, actor.user.id, params.key_id);
      return undefined;
    },
  });

  // Public, as GitLab's: anyone may read the keys a user authenticates with (like github.com/<user>.keys).
  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/keys', summary: "A user's SSH keys", tags: ['keys'], paginated: true, auth: 'optional', extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required() },
    handler: async ({ params, paginate }) => {
      const user = await findUser(deps, params.id);
      return (await paginate(userKeysQuery(deps, Number(user.id)))).map((row) => present(row, user.name));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/keys/:key_id', summary: "One of a user's SSH keys", tags: ['keys'], auth: 'optional', extraScopes: ['read_user'],
    ability: { instance: 'read_users_list' },
    params: { id: p.string.required(), key_id: p.integer.required() },
    handler: async ({ params }) => {
      const user = await findUser(deps, params.id);
      const row = await findUserKey(deps, Number(user.id), params.key_id);
      if (!row) throw new NotFoundError('Key');
      return present(row, user.name);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/keys', summary: 'Add an SSH key to a user (administrators)', tags: ['keys'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), ...keyParams },
    handler: async ({ params }) => {
      const user = await findUser(deps, params.id);
      const row = await createKey(deps, { id: Number(user.id), name: user.name, email: user.email }, {
        title: params.title, key: params.key, expiresAt: expiresAt(params.expires_at), usageType: (params.usage_type ?? 'auth_and_signing') as KeyUsageType,
      });
      return present(row, user.name);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:id/keys/:key_id', summary: "Remove a user's SSH key (administrators)", tags: ['keys'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), key_id: p.integer.required() },
    handler: async ({ params }) => {
      const user = await findUser(deps, params.id);
      await deleteKey(deps, Number(user.id), params.key_id);
      return undefined;
    },
  });

  /** A key's owner as GitLab's UserPublic. */
  const ownerEntity = async (user: UserRow) => userPrivate(deps.config.baseUrl, user, { personalProjects: (await personalProjectCounts(deps.db, [Number(user.id)])).get(Number(user.id)) ?? 0 });

  const withUser = async (row: KeyRow) => {
    if (row.user_id === null) return { ...present(row, ''), user: null };
    const user = await findUser(deps, Number(row.user_id));
    return { ...present(row, user.name), user: await ownerEntity(user) };
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/keys/:id', summary: 'An SSH key and its owner, by id (administrators)', tags: ['keys'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      const row = await findKeyById(deps, params.id);
      if (!row) throw new NotFoundError('Key');
      return withUser(row);
    },
  });

  /** GitLab's DeployKeyWithUser: the key as it was given (not the publishable one), its creator and the projects it is enabled on. */
  const deployKeyWithUser = async (row: KeyRow) => {
    const user = row.user_id === null ? null : await findUser(deps, Number(row.user_id));
    const links = await deployKeyLinks(deps, Number(row.id));
    return { ...deployKeyEntity(row), user: user && (await ownerEntity(user)), deploy_keys_projects: links.map(deployKeysProjectRecord) };
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/keys', summary: 'An SSH key and its owner, by MD5 or SHA256 fingerprint (administrators)', tags: ['keys'],
    ability: { instance: 'admin_all_resources' },
    params: { fingerprint: p.string.required() },
    handler: async ({ params }) => {
      const row = await byFingerprint(deps, params.fingerprint);
      if (!row) throw new NotFoundError('Key');
      return row.type === 'DeployKey' ? deployKeyWithUser(row) : withUser(row);
    },
  });
}
