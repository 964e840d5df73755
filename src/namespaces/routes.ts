// GET /namespaces, /namespaces/:id and /namespaces/:id/exists (lib/api/namespaces.rb), for signed-in
// callers. A namespace the caller may not read answers as a missing one: "404 Namespace Not Found".
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { today } from '../accounts/api.js';
import { findNamespaceRow, pathTaken, usableNamespacesQuery } from './finder.js';
import { administeredGroupIds, canReadNamespace } from './visibility.js';
import { membersCountWithDescendants } from './namespaces-queries.js';
import { namespaceWithCounts } from './entities.js';
import { suggestPath } from './suggest-path.js';

export function namespacesRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  async function present(user: AuthUser, rows: NamespaceRow[]) {
    const counted = await administeredGroupIds(deps, user, rows);
    const counts = await membersCountWithDescendants(deps.db, counted, today(deps.clock.now()));
    return rows.map((row) => namespaceWithCounts(base, row, counted.includes(Number(row.id)) ? (counts.get(Number(row.id)) ?? 0) : undefined));
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/namespaces', summary: 'Namespaces the caller can use (every namespace for administrators)', tags: ['namespaces'], paginated: true,
    ability: { instance: 'log_in' },
    params: {
      search: p.string.optional(),
      owned_only: p.boolean.optional(),
      top_level_only: p.boolean.optional({ default: false }),
      full_path_search: p.boolean.optional({ default: false }),
    },
    handler: async ({ params, actor, paginate }) => {
      const query = await usableNamespacesQuery(deps, actor.user, { search: params.search, ownedOnly: params.owned_only, topLevelOnly: params.top_level_only, fullPathSearch: params.full_path_search });
      return present(actor.user, await paginate(query));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/namespaces/:id', summary: 'One namespace by id or URL-encoded path', tags: ['namespaces'],
    ability: { instance: 'log_in' },
    params: { id: p.string.required() },
    handler: async ({ params, actor }) => {
      const namespace = await findNamespaceRow(deps, params.id);
      if (!namespace || !(await canReadNamespace(deps, actor.user, namespace))) throw new NotFoundError('Namespace');
      return (await present(actor.user, [namespace]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/namespaces/:id/exists', summary: 'Whether a namespace path is taken, with a free one suggested', tags: ['namespaces'],
    ability: { instance: 'log_in' },
    params: { id: p.string.required(), parent_id: p.integer.optional() },
    handler: async ({ params }) => {
      const parentId = params.parent_id ?? null;
      const exists = await pathTaken(deps, params.id, parentId);
      return { exists, suggests: exists ? [await suggestPath(params.id, (path) => pathTaken(deps, path, parentId))] : [] };
    },
  });
}
