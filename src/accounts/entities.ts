// Wire shapes of groups and projects (GitLab's Group, Namespace and Project entities), fields explicit.
import { isoTime } from '../platform/clock.js';
import type { NamespaceRow, ProjectRow } from './access.js';

export function groupWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/groups/${fullPath}`;
}

export function projectWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/${fullPath}`;
}

export function namespaceEntity(baseUrl: string, namespace: NamespaceRow) {
  return {
    id: Number(namespace.id),
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.full_path,
    parent_id: namespace.parent_id === null ? null : Number(namespace.parent_id),
    avatar_url: null,
    web_url: namespace.kind === 'group' ? groupWebUrl(baseUrl, namespace.full_path) : `${baseUrl}/${namespace.full_path}`,
  };
}

export function groupEntity(baseUrl: string, group: NamespaceRow) {
  return {
    id: Number(group.id),
    web_url: groupWebUrl(baseUrl, group.full_path),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: null,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: true,
    full_name: group.full_path.split('/').length > 1 ? group.full_path.replace(/\//g, ' / ') : group.name,
    full_path: group.full_path,
    created_at: isoTime(group.created_at),
    parent_id: group.parent_id === null ? null : Number(group.parent_id),
  };
}

export function projectEntity(baseUrl: string, project: ProjectRow, namespace: NamespaceRow, permissions?: { level: number }) {
  const webUrl = projectWebUrl(baseUrl, project.full_path);
  const host = new URL(baseUrl).host;
  return {
    id: Number(project.id),
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespace.full_path.split('/').length > 1 ? namespace.full_path.replace(/\//g, ' / ') : namespace.name} / ${project.name}`,
    path: project.path,
    path_with_namespace: project.full_path,
    created_at: isoTime(project.created_at),
    default_branch: project.default_branch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${host.split(':')[0]}:${project.full_path}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: null,
    forks_count: 0,
    star_count: 0,
    last_activity_at: isoTime(project.last_activity_at),
    namespace: namespaceEntity(baseUrl, namespace),
    visibility: project.visibility,
    creator_id: project.creator_id === null ? null : Number(project.creator_id),
    issues_enabled: true,
    archived: false,
    _links: {
      self: `${baseUrl}/api/v4/projects/${project.id}`,
      issues: `${baseUrl}/api/v4/projects/${project.id}/issues`,
      members: `${baseUrl}/api/v4/projects/${project.id}/members`,
      events: `${baseUrl}/api/v4/projects/${project.id}/events`,
    },
    ...(permissions
      ? {
          permissions: {
            // No membership (a public or internal project read by a non-member): null, as GitLab.
            project_access: permissions.level ? { access_level: permissions.level, notification_level: 3 } : null,
            group_access: null,
          },
        }
      : {}),
  };
}
