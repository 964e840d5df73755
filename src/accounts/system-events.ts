// Snapshots for system events (platform/domain-events.ts): what a user, group, project or membership
// was at the moment of the event, read in the action's transaction before it commits (and before a
// deletion removes the rows), so the job that sends GitLab's system hook payload reads nothing.
import type { Deps } from '../platform/deps.js';
import { inTransaction, type DbTransaction, type Executor } from '../platform/db/database.js';
import type { GroupSnapshot, MemberSnapshot, ProjectSnapshot, UserSnapshot } from '../platform/domain-events.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { today } from '../platform/auth/access-scope.js';
import type { NamespaceRow } from './access.js';
import type { MemberSource } from './member-source.js';

/** A group and its ancestors by full path (`a`, `a/b`, `a/b/c`): the ancestors are its path's prefixes. */
function selfAndAncestorPaths(fullPath: string): string[] {
  const parts = fullPath.toLowerCase().split('/');
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

type Person = { id: number; name: string; email: string };

/**
 * The users who own a project (GitLab's payload `owners`): for a group's project, the Owners of the
 * group and its ancestors; for a personal project, its owner and the members given Owner. Expired
 * memberships do not count. The lists name users (data for a payload), they decide no permission.
 */
async function projectOwners(trx: Executor, namespace: NamespaceRow, projectId: number, now: number): Promise<Person[]> {
  const members = trx
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['users.id', 'users.name', 'users.email'])
    .where('members.access_level', '=', ACCESS.owner)
    .where((eb) => eb.or([eb('members.expires_at', 'is', null), eb('members.expires_at', '>=', today(now))]));
  const rows: Person[] = namespace.kind === 'group'
    ? await members
      .where('members.source_type', '=', 'Namespace')
      .where('members.source_id', 'in', trx.selectFrom('namespaces').select('id').where('kind', '=', 'group').where('full_path_lower', 'in', selfAndAncestorPaths(namespace.full_path)))
      .orderBy('users.id')
      .execute()
    : [
      ...(await trx.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', Number(namespace.owner_id)).execute()),
      ...(await members.where('members.source_type', '=', 'Project').where('members.source_id', '=', projectId).orderBy('users.id').execute()),
    ];
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(Number(row.id)) && seen.add(Number(row.id)));
}

export async function projectSnapshot(trx: Executor, projectId: number, now: number): Promise<ProjectSnapshot | null> {
  const project = await trx.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  if (!project) return null;
  const namespace = await trx.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const owners = await projectOwners(trx, namespace, projectId, now);
  const personalOwner = namespace.kind === 'user' ? owners.find((owner) => owner.id === Number(namespace.owner_id)) : undefined;
  return {
    id: Number(project.id),
    name: project.name,
    path: project.path,
    fullPath: project.full_path,
    namespaceId: Number(project.namespace_id),
    visibility: project.visibility,
    createdAt: Number(project.created_at),
    updatedAt: Number(project.updated_at),
    owner: personalOwner ? { name: personalOwner.name, email: personalOwner.email } : { name: namespace.name, email: '' },
    owners: owners.map((owner) => ({ name: owner.name, email: owner.email })),
  };
}

export async function userSnapshot(trx: Executor, userId: number): Promise<UserSnapshot | null> {
  const user = await trx.selectFrom('users').select(['id', 'username', 'name', 'email', 'state', 'created_at', 'updated_at']).where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  return { id: Number(user.id), username: user.username, name: user.name, email: user.email, state: user.state, createdAt: Number(user.created_at), updatedAt: Number(user.updated_at) };
}

export function groupSnapshot(group: NamespaceRow): GroupSnapshot {
  return { id: Number(group.id), name: group.name, path: group.path, fullPath: group.full_path, createdAt: Number(group.created_at), updatedAt: Number(group.updated_at) };
}

/** The user's direct membership of the source, or null when there is none. */
export async function memberSnapshot(trx: Executor, source: MemberSource, userId: number): Promise<MemberSnapshot | null> {
  const member = await trx
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.access_level', 'members.expires_at', 'members.created_at', 'members.updated_at', 'users.id', 'users.username', 'users.name', 'users.email'])
    .where('members.source_type', '=', source.type)
    .where('members.source_id', '=', source.id)
    .where('members.user_id', '=', userId)
    .executeTakeFirst();
  if (!member) return null;
  const of = source.type === 'Project'
    ? await trx.selectFrom('projects').select(['id', 'name', 'path', 'full_path', 'visibility']).where('id', '=', source.id).executeTakeFirst()
    : await trx.selectFrom('namespaces').select(['id', 'name', 'path', 'full_path', 'visibility']).where('id', '=', source.id).executeTakeFirst();
  if (!of) return null;
  const base = { id: Number(of.id), name: of.name, path: of.path, fullPath: of.full_path };
  return {
    accessLevel: Number(member.access_level),
    expiresAt: member.expires_at,
    createdAt: Number(member.created_at),
    updatedAt: Number(member.updated_at),
    user: { id: Number(member.id), username: member.username, name: member.name, email: member.email },
    source: source.type === 'Project' ? { type: 'Project', ...base, visibility: of.visibility } : { type: 'Namespace', ...base },
  };
}

// Publishing (in the action's transaction; a destroy before its rows go).

export async function publishProjectEvent(deps: Deps, trx: DbTransaction, kind: 'project.created' | 'project.updated' | 'project.destroyed', projectId: number, actorId: number | null): Promise<void> {
  const project = await projectSnapshot(trx, projectId, deps.clock.now());
  if (project) await deps.domainEvents.publish(trx, { kind, actorId, project });
}

/** A new path: 'project.renamed' within its namespace, 'project.transferred' to another; publish after the move. */
export async function publishProjectMove(deps: Deps, trx: DbTransaction, kind: 'project.renamed' | 'project.transferred', projectId: number, actorId: number | null, oldFullPath: string): Promise<void> {
  const project = await projectSnapshot(trx, projectId, deps.clock.now());
  if (project) await deps.domainEvents.publish(trx, { kind, actorId, project, oldFullPath });
}

export async function publishUserEvent(deps: Deps, trx: DbTransaction, kind: 'user.created' | 'user.destroyed' | 'user.failed_login', userId: number, actorId: number | null): Promise<void> {
  const user = await userSnapshot(trx, userId);
  if (user) await deps.domainEvents.publish(trx, { kind, actorId, user });
}

/** A blocked user was refused at sign-in (GitLab's user_failed_login): a transaction of its own, nothing else is written. */
export async function publishFailedLogin(deps: Deps, userId: number): Promise<void> {
  await inTransaction(deps.db, (trx) => publishUserEvent(deps, trx, 'user.failed_login', userId, userId));
}

/** After an add or an update, before a removal. */
export async function publishMemberEvent(deps: Deps, trx: DbTransaction, kind: 'member.added' | 'member.updated' | 'member.removed', source: MemberSource, userId: number, actorId: number | null): Promise<void> {
  const member = await memberSnapshot(trx, source, userId);
  if (member) await deps.domainEvents.publish(trx, { kind, actorId, member });
}
