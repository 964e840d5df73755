import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import type { Principal } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { findGroup, findProject, requireLevel } from './lookup.js';
import { addMember, listMembersQuery, memberEntity, removeMember, updateMember, type MemberSource } from './members.js';

/** The membership source behind `/groups/:id` or `/projects/:id`, with the caller's level on it. */
async function sourceFor(deps: Deps, kind: 'groups' | 'projects', actor: Principal, id: string): Promise<{ source: MemberSource; level: number }> {
  if (kind === 'groups') {
    const access = await findGroup(deps, actor, id);
    return { source: { type: 'Namespace', id: Number(access.group.id) }, level: access.level };
  }
  const access = await findProject(deps, actor, id);
  return { source: { type: 'Project', id: Number(access.project.id) }, level: access.level };
}

export function membersRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  for (const kind of ['groups', 'projects'] as const) {
    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/members`, summary: `List direct members of a ${kind.slice(0, -1)}`, tags: ['members'], paginated: true,
      params: { id: p.string.required() },
      handler: async ({ params, actor, paginate }) => {
        const { source } = await sourceFor(deps, kind, actor, params.id);
        return (await paginate(listMembersQuery(deps, source))).map((row) => memberEntity(base, row));
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${kind}/:id/members`, summary: `Add a member to a ${kind.slice(0, -1)} (maintainers)`, tags: ['members'],
      params: { id: p.string.required(), user_id: p.integer.required(), access_level: p.integer.required(), expires_at: p.date.optional() },
      handler: async ({ params, actor }) => {
        const target = await sourceFor(deps, kind, actor, params.id);
        requireLevel(target, ACCESS.maintainer);
        const { member, user } = await addMember(deps, actor.user.id, target.source, { userId: params.user_id, accessLevel: params.access_level, expiresAt: params.expires_at });
        return memberEntity(base, { ...user, id: Number(user.id), access_level: member.access_level, expires_at: member.expires_at, created_at: member.created_at });
      },
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/${kind}/:id/members/:user_id`, summary: `Change a member's access level (maintainers)`, tags: ['members'],
      params: { id: p.string.required(), user_id: p.integer.required(), access_level: p.integer.required(), expires_at: p.date.optional() },
      handler: async ({ params, actor }) => {
        const target = await sourceFor(deps, kind, actor, params.id);
        requireLevel(target, ACCESS.maintainer);
        await updateMember(deps, target.source, params.user_id, { accessLevel: params.access_level, expiresAt: params.expires_at });
        const row = await listMembersQuery(deps, target.source).where('m.user_id', '=', params.user_id).executeTakeFirstOrThrow();
        return memberEntity(base, row);
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${kind}/:id/members/:user_id`, summary: `Remove a member (maintainers, or the member themself)`, tags: ['members'],
      params: { id: p.string.required(), user_id: p.integer.required() },
      handler: async ({ params, actor }) => {
        const target = await sourceFor(deps, kind, actor, params.id);
        if (params.user_id !== actor.user.id) requireLevel(target, ACCESS.maintainer);
        await removeMember(deps, target.source, params.user_id);
        return undefined;
      },
    });
  }
}
