import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, type ParamSchema } from '../platform/http/params.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { PolicySubject } from '../platform/auth/policies/index.js';
import type { MemberSource } from './member-source.js';
import { listMembersQuery } from './members-finder.js';
import { allMembersQuery } from './all-members-queries.js';
import { memberEntity } from './member-entities.js';
import { createMember } from './create-member.js';
import { updateMember } from './update-member.js';
import { destroyMember } from './destroy-member.js';

type Kind = 'groups' | 'projects';

// Reading members is read_*_member (anonymous callers too, on public sources); adding and changing
// them is admin_*_member; removing is decided by the member policy, since members may leave.
const ABILITY = {
  groups: { read: { group: 'read_group_member' }, admin: { group: 'admin_group_member' } },
  projects: { read: { project: 'read_project_member' }, admin: { project: 'admin_project_member' } },
} as const;

/** The membership source and the namespace its inherited members start from. */
async function inheritedSourceOf<S extends ParamSchema>(kind: Kind, context: RouteContext<S>): Promise<{ source: MemberSource; namespaceId: number }> {
  if (kind === 'groups') {
    const access = await context.group();
    return { source: { type: 'Namespace', id: Number(access.group.id) }, namespaceId: Number(access.group.id) };
  }
  const access = await context.project();
  return { source: { type: 'Project', id: Number(access.project.id) }, namespaceId: Number(access.project.namespace_id) };
}

/** The membership source behind `/groups/:id` or `/projects/:id`, with the caller on it. */
async function sourceOf<S extends ParamSchema>(kind: Kind, context: RouteContext<S>): Promise<{ source: MemberSource; actor: PolicySubject }> {
  if (kind === 'groups') {
    const access = await context.group();
    return { source: { type: 'Namespace', id: Number(access.group.id) }, actor: access };
  }
  const access = await context.project();
  return { source: { type: 'Project', id: Number(access.project.id) }, actor: access };
}

export function membersRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  for (const kind of ['groups', 'projects'] as const) {
    const noun = kind.slice(0, -1);

    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/members`, summary: `List direct members of a ${noun}`, tags: ['members'], paginated: true,
      ability: ABILITY[kind].read,
      params: { id: p.string.required(), query: p.string.optional(), user_ids: p.integers.optional(), skip_users: p.integers.optional() },
      handler: async (context) => {
        const { source } = await sourceOf(kind, context);
        const filters = { search: context.params.query, userIds: context.params.user_ids, skipUserIds: context.params.skip_users };
        return (await context.paginate(listMembersQuery(deps, source, filters))).map((row) => memberEntity(base, row));
      },
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/members/all`, summary: `List the members of a ${noun} with those inherited from the groups above`, tags: ['members'], paginated: true,
      ability: ABILITY[kind].read,
      params: { id: p.string.required(), query: p.string.optional(), user_ids: p.integers.optional() },
      handler: async (context) => {
        const { source, namespaceId } = await inheritedSourceOf(kind, context);
        const query = allMembersQuery(deps, source, namespaceId, { search: context.params.query, userIds: context.params.user_ids });
        return (await context.paginate(query)).map((row) => memberEntity(base, row));
      },
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/members/all/:user_id`, summary: `Get a member of a ${noun}, direct or inherited`, tags: ['members'],
      ability: ABILITY[kind].read,
      params: { id: p.string.required(), user_id: p.integer.required() },
      handler: async (context) => {
        const { source, namespaceId } = await inheritedSourceOf(kind, context);
        const row = await allMembersQuery(deps, source, namespaceId).where('u.id', '=', context.params.user_id).executeTakeFirst();
        if (!row) throw new RecordNotFoundError();
        return memberEntity(base, row);
      },
    });

    // python-gitlab's members.get(user_id) (and so every member.save() it makes) reads this first.
    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/members/:user_id`, summary: `Get a direct member of a ${noun}`, tags: ['members'],
      ability: ABILITY[kind].read,
      params: { id: p.string.required(), user_id: p.integer.required() },
      handler: async (context) => {
        const { source } = await sourceOf(kind, context);
        const row = await listMembersQuery(deps, source).where('m.user_id', '=', context.params.user_id).executeTakeFirst();
        if (!row) throw new RecordNotFoundError();
        return memberEntity(base, row);
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${kind}/:id/members`, summary: `Add a member to a ${noun}`, tags: ['members'],
      ability: ABILITY[kind].admin,
      params: { id: p.string.required(), user_id: p.integer.required(), access_level: p.integer.required(), expires_at: p.date.optional() },
      handler: async (context) => {
        const { params } = context;
        const { source, actor } = await sourceOf(kind, context);
        const { member, user } = await createMember(deps, actor, source, { userId: params.user_id, accessLevel: params.access_level, expiresAt: params.expires_at });
        return memberEntity(base, { ...user, id: Number(user.id), access_level: member.access_level, expires_at: member.expires_at, created_at: member.created_at });
      },
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/${kind}/:id/members/:user_id`, summary: `Change a direct member's access level`, tags: ['members'],
      ability: ABILITY[kind].admin,
      params: { id: p.string.required(), user_id: p.integer.required(), access_level: p.integer.required(), expires_at: p.date.optional() },
      handler: async (context) => {
        const { params } = context;
        const { source, actor } = await sourceOf(kind, context);
        await updateMember(deps, actor, source, params.user_id, { accessLevel: params.access_level, expiresAt: params.expires_at });
        return memberEntity(base, await listMembersQuery(deps, source).where('m.user_id', '=', params.user_id).executeTakeFirstOrThrow());
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${kind}/:id/members/:user_id`, summary: `Remove a direct member, or leave`, tags: ['members'],
      ability: ABILITY[kind].read,
      params: { id: p.string.required(), user_id: p.integer.required() },
      handler: async (context) => {
        const { source, actor } = await sourceOf(kind, context);
        await destroyMember(deps, actor, source, context.params.user_id);
        return undefined;
      },
    });
  }
}
