// System hook payloads (GitLab's SystemHooksService#build_event_data, doc/administration/system_hooks.md).
import type { Deps } from '../../platform/deps.js';
import { ACCESS } from '../../platform/auth/access-levels.js';
import { hookTime } from './common.js';

const VISIBILITY: Record<string, string> = { private: 'private', internal: 'internal', public: 'public' };

/** project_create: the project, its owner (a user, or the group: its name, no e-mail) and the owners' names and e-mails. */
export async function projectCreateData(deps: Deps, projectId: number) {
  const project = await deps.db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.name', 'projects.path', 'projects.full_path', 'projects.visibility', 'projects.created_at', 'projects.updated_at', 'projects.namespace_id', 'namespaces.kind', 'namespaces.name as namespace_name', 'namespaces.owner_id'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  if (!project) return null;
  const owners = project.kind === 'user'
    ? await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', Number(project.owner_id)).execute()
    : await deps.db
      .selectFrom('members')
      .innerJoin('users', 'users.id', 'members.user_id')
      .select(['users.name', 'users.email'])
      .where('members.source_type', '=', 'Namespace')
      .where('members.source_id', '=', Number(project.namespace_id))
      // The payload lists the group's Owners (GitLab's project.owners for a group project): data, not a permission decision.
      .where('members.access_level', '=', ACCESS.owner)
      .orderBy('users.id')
      .execute();
  const owner = project.kind === 'user' ? owners[0] : { name: project.namespace_name, email: '' };
  return {
    created_at: hookTime(project.created_at),
    updated_at: hookTime(project.updated_at),
    event_name: 'project_create',
    name: project.name,
    owner_email: owner?.email ?? '',
    owner_name: owner?.name ?? '',
    owners: owners.map((user) => ({ name: user.name, email: user.email })),
    path: project.path,
    path_with_namespace: project.full_path,
    project_id: Number(project.id),
    project_namespace_id: Number(project.namespace_id),
    project_visibility: VISIBILITY[project.visibility] ?? 'private',
  };
}
