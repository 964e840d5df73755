// Wire shapes of groups and projects (GitLab's Group, Namespace and Project entities), fields explicit.
import { isoTime } from '../platform/clock.js';
import type { Config } from '../config.js';
import type { NamespaceRow, ProjectRow } from './access.js';

export function groupWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/groups/${fullPath}`;
}

export function projectWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/${fullPath}`;
}

/** Where an uploaded avatar is served (GitLab's `/uploads/-/system/<model>/avatar/<id>/<file>`), or null. */
export function uploadedAvatarUrl(baseUrl: string, model: 'project' | 'group', id: number, filename: string | null): string | null {
  return filename === null ? null : `${baseUrl}/uploads/-/system/${model}/avatar/${id}/${encodeURIComponent(filename)}`;
}

function topicsOf(project: ProjectRow): string[] {
  try {
    const topics: unknown = JSON.parse(project.topics);
    return Array.isArray(topics) ? topics.map(String) : [];
  } catch {
    return [];
  }
}

export function namespaceEntity(baseUrl: string, namespace: NamespaceRow) {
  return {
    id: Number(namespace.id),
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.full_path,
    parent_id: namespace.parent_id === null ? null : Number(namespace.parent_id),
    avatar_url: namespace.kind === 'group' ? uploadedAvatarUrl(baseUrl, 'group', Number(namespace.id), namespace.avatar) : null,
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
    avatar_url: uploadedAvatarUrl(baseUrl, 'group', Number(group.id), group.avatar),
    request_access_enabled: true,
    full_name: group.full_path.split('/').length > 1 ? group.full_path.replace(/\//g, ' / ') : group.name,
    full_path: group.full_path,
    created_at: isoTime(group.created_at),
    parent_id: group.parent_id === null ? null : Number(group.parent_id),
    // GitLab names the day a group was marked for deletion; the deletion job then removes it.
    marked_for_deletion_on: isoTime(group.deletion_scheduled_at)?.slice(0, 10) ?? null,
  };
}

/** The URL prefixes of the entities, from the instance's base URL. */
export interface EntityUrls {
  /** `http://host/` */
  web: string;
  /** `git@host:` or `ssh://git@host:port/` */
  ssh: string;
  /** `http://host/api/v4/projects/` */
  api: string;
}

/** What the URLs of entities come from: the base URL and the SSH clone prefix (config.ts). */
export type UrlConfig = Pick<Config, 'baseUrl' | 'sshUrlPrefix'>;

// The prefixes depend on the configuration only; parsing it for every entity showed in profiles.
let lastUrls: { baseUrl: string; ssh: string; urls: EntityUrls } | null = null;

export function entityUrls(config: UrlConfig): EntityUrls {
  if (lastUrls === null || lastUrls.baseUrl !== config.baseUrl || lastUrls.ssh !== config.sshUrlPrefix) {
    const { baseUrl, sshUrlPrefix: ssh } = config;
    lastUrls = { baseUrl, ssh, urls: { web: `${baseUrl}/`, ssh, api: `${baseUrl}/api/v4/projects/` } };
  }
  return lastUrls.urls;
}

// `permissions` is added after the literal, not spread into it: a spread in an object literal is V8's
// slow path for the properties around it (docs/performance.md); the key order stays GitLab's.
export function projectEntity(config: UrlConfig, project: ProjectRow, namespace: NamespaceRow, permissions?: { level: number }) {
  const { baseUrl } = config;
  const webUrl = projectWebUrl(baseUrl, project.full_path);
  const urls = entityUrls(config);
  const topics = topicsOf(project);
  const entity: ReturnType<typeof projectFields> & { permissions?: ProjectPermissions } = projectFields(baseUrl, urls, webUrl, topics, project, namespace);
  if (permissions) {
    entity.permissions = {
      // No membership (a public or internal project read by a non-member): null, as GitLab.
      project_access: permissions.level ? { access_level: permissions.level, notification_level: 3 } : null,
      group_access: null,
    };
  }
  return entity;
}

interface ProjectPermissions {
  project_access: { access_level: number; notification_level: number } | null;
  group_access: null;
}

function projectFields(baseUrl: string, urls: EntityUrls, webUrl: string, topics: string[], project: ProjectRow, namespace: NamespaceRow) {
  return {
    id: Number(project.id),
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespace.full_path.split('/').length > 1 ? namespace.full_path.replace(/\//g, ' / ') : namespace.name} / ${project.name}`,
    path: project.path,
    path_with_namespace: project.full_path,
    created_at: isoTime(project.created_at),
    default_branch: project.default_branch,
    tag_list: topics,
    topics: [...topics],
    ssh_url_to_repo: `${urls.ssh}${project.full_path}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: uploadedAvatarUrl(baseUrl, 'project', Number(project.id), project.avatar),
    forks_count: 0,
    star_count: Number(project.star_count),
    last_activity_at: isoTime(project.last_activity_at),
    namespace: namespaceEntity(baseUrl, namespace),
    visibility: project.visibility,
    creator_id: project.creator_id === null ? null : Number(project.creator_id),
    issues_enabled: project.issues_access_level !== 'disabled',
    issues_access_level: project.issues_access_level,
    repository_access_level: project.repository_access_level,
    archived: false,
    _links: {
      self: `${baseUrl}/api/v4/projects/${project.id}`,
      issues: `${baseUrl}/api/v4/projects/${project.id}/issues`,
      members: `${baseUrl}/api/v4/projects/${project.id}/members`,
      events: `${baseUrl}/api/v4/projects/${project.id}/events`,
    },
  };
}

/** GitLab's BasicProjectDetails (`simple=true`): the project without its settings and permissions. */
export function projectSimpleEntity(config: UrlConfig, project: ProjectRow, namespace: NamespaceRow) {
  const full = projectEntity(config, project, namespace);
  return {
    id: full.id,
    description: full.description,
    name: full.name,
    name_with_namespace: full.name_with_namespace,
    path: full.path,
    path_with_namespace: full.path_with_namespace,
    created_at: full.created_at,
    default_branch: full.default_branch,
    tag_list: full.tag_list,
    topics: full.topics,
    ssh_url_to_repo: full.ssh_url_to_repo,
    http_url_to_repo: full.http_url_to_repo,
    web_url: full.web_url,
    readme_url: full.readme_url,
    forks_count: full.forks_count,
    avatar_url: full.avatar_url,
    star_count: full.star_count,
    last_activity_at: full.last_activity_at,
    namespace: full.namespace,
  };
}
