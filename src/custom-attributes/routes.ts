// Custom attributes (doc/api/custom_attributes.md; lib/api/custom_attributes_endpoints.rb):
// `/users|groups|projects/:id/custom_attributes`, key/value pairs only administrators read and
// write (403 for others). Lists of users, groups and projects filter by them
// (`custom_attributes[key]=value`) and show them (`with_custom_attributes`) for administrators.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError, RecordNotFoundError } from '../platform/errors.js';
import { findOwnerId, OWNER_COLUMNS, type OwnerKind } from './owners.js';
import { upsertCustomAttribute } from './upsert-custom-attribute.js';

const TAGS = ['custom_attributes'];
const ADMIN = { instance: 'admin_all_resources' } as const;
const entity = (row: { key: string; value: string }) => ({ key: row.key, value: row.value });

export function customAttributeRoutes(app: FastifyInstance, deps: Deps): void {
  for (const kind of Object.keys(OWNER_COLUMNS) as OwnerKind[]) kindRoutes(app, deps, kind);
}

function kindRoutes(app: FastifyInstance, deps: Deps, kind: OwnerKind): void {
  const base = `/${kind}/:id/custom_attributes`;
  const column = OWNER_COLUMNS[kind];
  const noun = kind.slice(0, -1);
  const rows = (ownerId: number) => deps.db.selectFrom('custom_attributes').select(['key', 'value']).where(column, '=', ownerId);

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: `A ${noun}'s custom attributes (administrators)`, tags: TAGS,
    ability: ADMIN,
    params: { id: p.string.required() },
    handler: async ({ params, actor }) => (await rows(await findOwnerId(deps, actor, kind, params.id)).orderBy('key').execute()).map(entity),
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:key`, summary: `One custom attribute of a ${noun} (administrators)`, tags: TAGS,
    ability: ADMIN,
    params: { id: p.string.required(), key: p.string.required() },
    handler: async ({ params, actor }) => {
      const row = await rows(await findOwnerId(deps, actor, kind, params.id)).where('key', '=', params.key).executeTakeFirst();
      if (!row) throw new RecordNotFoundError();
      return entity(row);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:key`, summary: `Set a custom attribute of a ${noun}, made or changed (administrators)`, tags: TAGS,
    ability: ADMIN,
    params: { id: p.string.required(), key: p.string.required({ max: 255 }), value: p.string.required({ max: 255 }) },
    handler: async ({ params, actor }) => entity(await upsertCustomAttribute(deps, column, await findOwnerId(deps, actor, kind, params.id), params.key, params.value)),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:key`, summary: `Delete a custom attribute of a ${noun} (administrators)`, tags: TAGS,
    ability: ADMIN,
    params: { id: p.string.required(), key: p.string.required() },
    handler: async ({ params, actor }) => {
      const ownerId = await findOwnerId(deps, actor, kind, params.id);
      const deleted = await deps.db.deleteFrom('custom_attributes').where(column, '=', ownerId).where('key', '=', params.key).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError('Custom attribute');
      return undefined;
    },
  });
}
