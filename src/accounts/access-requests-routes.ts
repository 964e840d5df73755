// GitLab's access requests API (lib/api/access_requests.rb) for groups and projects: list (managers),
// request (the caller), approve (managers) and deny or withdraw. The rules are access-requests.ts's.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, type ParamSchema } from '../platform/http/params.js';
import { isoTime } from '../platform/clock.js';
import { userBasic } from './user-entities.js';
import { memberEntity } from './member-entities.js';
import { accessRequestsQuery, approveAccessRequest, denyAccessRequest, groupRequestTarget, projectRequestTarget, requestAccess, type RequestTarget } from './access-requests.js';

const ABILITY = {
  groups: { read: { group: 'read_group' }, admin: { group: 'admin_group_member' } },
  projects: { read: { project: 'read_project' }, admin: { project: 'admin_project_member' } },
} as const;

async function targetOf<S extends ParamSchema>(kind: 'groups' | 'projects', context: RouteContext<S>): Promise<RequestTarget> {
  return kind === 'groups' ? groupRequestTarget(await context.group()) : projectRequestTarget(await context.project());
}

/** GitLab's AccessRequester entity. */
function accessRequesterEntity(baseUrl: string, row: Parameters<typeof userBasic>[1] & { requested_at: number }) {
  return { ...userBasic(baseUrl, row), requested_at: isoTime(Number(row.requested_at)) };
}

export function accessRequestsRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  for (const kind of ['groups', 'projects'] as const) {
    const noun = kind.slice(0, -1);

    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/access_requests`, summary: `List the access requests of a ${noun}`, tags: ['access_requests'], paginated: true,
      ability: ABILITY[kind].admin,
      params: { id: p.string.required() },
      handler: async (context) => {
        const target = await targetOf(kind, context);
        return (await context.paginate(accessRequestsQuery(deps, target.source))).map((row) => accessRequesterEntity(base, { ...row, id: Number(row.id) }));
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${kind}/:id/access_requests`, summary: `Request access to a ${noun}`, tags: ['access_requests'],
      ability: ABILITY[kind].read, auth: 'required',
      params: { id: p.string.required() },
      handler: async (context) => {
        const target = await targetOf(kind, context);
        const row = await requestAccess(deps, target);
        const user = target.access.user!;
        const stored = await deps.db.selectFrom('users').select(['id', 'username', 'name', 'state', 'avatar']).where('id', '=', user.id).executeTakeFirstOrThrow();
        return accessRequesterEntity(base, { ...stored, id: Number(stored.id), requested_at: Number(row.requested_at) });
      },
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/${kind}/:id/access_requests/:user_id/approve`, summary: `Approve an access request to a ${noun}`, tags: ['access_requests'],
      ability: ABILITY[kind].admin,
      params: { id: p.string.required(), user_id: p.integer.required(), access_level: p.integer.optional() },
      handler: async (context) => {
        const target = await targetOf(kind, context);
        const { member, user } = await approveAccessRequest(deps, target, context.params.user_id, context.params.access_level);
        return memberEntity(base, { ...user, id: Number(user.id), access_level: member.access_level, expires_at: member.expires_at, created_at: member.created_at });
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${kind}/:id/access_requests/:user_id`, summary: `Deny an access request to a ${noun}, or withdraw one's own`, tags: ['access_requests'],
      ability: ABILITY[kind].read, auth: 'required',
      params: { id: p.string.required(), user_id: p.integer.required() },
      handler: async (context) => {
        await denyAccessRequest(deps, await targetOf(kind, context), context.params.user_id);
        return undefined;
      },
    });
  }
}
