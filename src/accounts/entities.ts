// Wire shapes of groups and projects (GitLab's Group, Namespace and Project entities), fields explicit.
import { isoTime } from '../platform/clock.js';
import type { Config } from '../config.js';
import { defineEntity, field, pickFields, type Field } from '../platform/http/entity.js';
import { cachedJson, keptJson, withMember } from '../platform/http/entity-cache.js';
import type { InstanceCaches } from '../platform/instance-caches.js';
import type { NamespaceRow, ProjectRow } from './access.js';
import { shownSchemas, shownSettings, type AliasTable, type SettingsTable } from './stored-settings.js';
import { avatarUrl, uploadedAvatarUrl } from './avatar-urls.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS, PROJECT_SETTING_ALIASES, PROJECT_STORED_SETTINGS } from './settings-tables.js';

export function groupWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/groups/${fullPath}`;
}

export function projectWebUrl(baseUrl: string, fullPath: string): string {
  return `${baseUrl}/${fullPath}`;
}

function topicsOf(project: ProjectRow): string[] {
  try {
    const topics: unknown = JSON.parse(project.topics);
    return Array.isArray(topics) ? topics.map(String) : [];
  } catch {
    return [];
  }
}

/** What the Namespace entity is computed from. */
export interface NamespaceSource {
  baseUrl: string;
  namespace: NamespaceRow;
}

/** GitLab's NamespaceBasic, as nested in a project. */
export const NAMESPACE_ENTITY = defineEntity<NamespaceSource>()({
  id: field.integer(({ namespace }) => Number(namespace.id)),
  name: field.string(({ namespace }) => namespace.name),
  path: field.string(({ namespace }) => namespace.path),
  kind: field.string(({ namespace }) => namespace.kind),
  full_path: field.string(({ namespace }) => namespace.full_path),
  parent_id: field.nullableInteger(({ namespace }) => (namespace.parent_id === null ? null : Number(namespace.parent_id))),
  // A user's namespace shows its owner's avatar (the row keeps the user's file name: change-user-avatar.ts).
  avatar_url: field.nullableString(({ baseUrl, namespace }) => (namespace.kind === 'group'
    ? uploadedAvatarUrl(baseUrl, 'group', Number(namespace.id), namespace.avatar)
    : avatarUrl(baseUrl, { id: Number(namespace.owner_id), username: namespace.path, avatar: namespace.avatar }))),
  web_url: field.string(({ baseUrl, namespace }) => (namespace.kind === 'group' ? groupWebUrl(baseUrl, namespace.full_path) : `${baseUrl}/${namespace.full_path}`)),
});

export function namespaceEntity(baseUrl: string, namespace: NamespaceRow) {
  return NAMESPACE_ENTITY.present({ baseUrl, namespace });
}

export function groupEntity(baseUrl: string, group: NamespaceRow) {
  return {
    id: Number(group.id),
    web_url: groupWebUrl(baseUrl, group.full_path),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    // The stored settings (settings-tables.ts), GitLab's defaults where none was set.
    ...shownSettings(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES, group.settings),
    avatar_url: uploadedAvatarUrl(baseUrl, 'group', Number(group.id), group.avatar),
    full_name: group.full_path.split('/').length > 1 ? group.full_path.replace(/\//g, ' / ') : group.name,
    full_path: group.full_path,
    created_at: isoTime(group.created_at),
    parent_id: group.parent_id === null ? null : Number(group.parent_id),
    // GitLab names the day a group was marked for deletion; the deletion job then removes it.
    marked_for_deletion_on: isoTime(group.deletion_scheduled_at)?.slice(0, 10) ?? null,
  };
}

/** The URL prefixes of the entities, from the configuration. */
export interface EntityUrls {
  /** `git@host:` on port 22, else `ssh://git@host:port/` (config.ts, KILN_SSH_HOST and KILN_SSH_PORT). */
  ssh: string;
}

/** What the URLs of entities come from: the base URL and the SSH clone prefix. */
export type UrlConfig = Pick<Config, 'baseUrl' | 'sshUrlPrefix'>;

export function entityUrls(config: UrlConfig): EntityUrls {
  return { ssh: config.sshUrlPrefix };
}

/** What the Project entity is computed from: the rows, and what several fields share, computed once. */
export interface ProjectSource extends NamespaceSource {
  project: ProjectRow;
  webUrl: string;
  urls: EntityUrls;
  topics: string[];
  /** The stored settings as shown (settings-tables.ts), read from the row's JSON once. */
  stored: Record<string, unknown>;
  /** The caller's level on the project; absent for anonymous callers (GitLab presents permissions to users only). */
  permissions?: { level: number };
}

export function projectSource(config: UrlConfig, project: ProjectRow, namespace: NamespaceRow, permissions?: { level: number }): ProjectSource {
  const { baseUrl } = config;
  return { baseUrl, project, namespace, webUrl: projectWebUrl(baseUrl, project.full_path), urls: entityUrls(config), topics: topicsOf(project), stored: shownSettings(PROJECT_STORED_SETTINGS, PROJECT_SETTING_ALIASES, project.settings), permissions };
}

/** Entity fields of the stored settings: each shows its value from the source's `stored`. */
function storedFields(table: SettingsTable, aliases: AliasTable): Record<string, Field<ProjectSource, unknown>> {
  return Object.fromEntries(Object.entries(shownSchemas(table, aliases)).map(([name, schema]) => [name, { schema, value: ({ stored }: ProjectSource) => stored[name] }]));
}

const ACCESS = { anyOf: [{ type: 'object', properties: { access_level: { type: 'integer' }, notification_level: { type: 'integer' } }, required: ['access_level', 'notification_level'] }, { type: 'null' }] };

/**
 * GitLab's Project entity (ProjectDetails with `permissions` for a signed-in caller). A project
 * attribute is one line here (its column in a migration, its type in db/tables/accounts.ts, and, if
 * it can be changed, one line in project-settings.ts's PROJECT_SETTINGS): docs/architecture.md.
 */
export const PROJECT_FIELDS = {
  id: field.integer(({ project }: ProjectSource) => Number(project.id)),
  description: field.nullableString(({ project }: ProjectSource) => project.description),
  name: field.string(({ project }: ProjectSource) => project.name),
  name_with_namespace: field.string(({ project, namespace }: ProjectSource) => `${namespace.full_path.split('/').length > 1 ? namespace.full_path.replace(/\//g, ' / ') : namespace.name} / ${project.name}`),
  path: field.string(({ project }: ProjectSource) => project.path),
  path_with_namespace: field.string(({ project }: ProjectSource) => project.full_path),
  created_at: field.nullableString(({ project }: ProjectSource) => isoTime(project.created_at)),
  default_branch: field.nullableString(({ project }: ProjectSource) => project.default_branch),
  tag_list: field.strings(({ topics }: ProjectSource) => topics),
  topics: field.strings(({ topics }: ProjectSource) => [...topics]),
  ssh_url_to_repo: field.string(({ urls, project }: ProjectSource) => `${urls.ssh}${project.full_path}.git`),
  http_url_to_repo: field.string(({ webUrl }: ProjectSource) => `${webUrl}.git`),
  web_url: field.string(({ webUrl }: ProjectSource) => webUrl),
  readme_url: field.null<ProjectSource>(),
  avatar_url: field.nullableString(({ baseUrl, project }: ProjectSource) => uploadedAvatarUrl(baseUrl, 'project', Number(project.id), project.avatar)),
  forks_count: field.integer(({ project }: ProjectSource) => Number(project.forks_count ?? 0)),
  star_count: field.integer(({ project }: ProjectSource) => Number(project.star_count)),
  last_activity_at: field.nullableString(({ project }: ProjectSource) => isoTime(project.last_activity_at)),
  namespace: field.entity(NAMESPACE_ENTITY, (source: ProjectSource) => source),
  visibility: field.string(({ project }: ProjectSource) => project.visibility),
  creator_id: field.nullableInteger(({ project }: ProjectSource) => (project.creator_id === null ? null : Number(project.creator_id))),
  issues_enabled: field.boolean(({ project }: ProjectSource) => project.issues_access_level !== 'disabled'),
  merge_requests_enabled: field.boolean(({ project }: ProjectSource) => project.merge_requests_access_level !== 'disabled'),
  issues_access_level: field.string(({ project }: ProjectSource) => project.issues_access_level),
  repository_access_level: field.string(({ project }: ProjectSource) => project.repository_access_level),
  merge_requests_access_level: field.string(({ project }: ProjectSource) => project.merge_requests_access_level),
  resolve_outdated_diff_discussions: field.boolean(({ project }: ProjectSource) => Number(project.resolve_outdated_diff_discussions) === 1),
  only_allow_merge_if_pipeline_succeeds: field.boolean(({ project }: ProjectSource) => Number(project.only_allow_merge_if_pipeline_succeeds) === 1),
  allow_merge_on_skipped_pipeline: field.boolean(({ project }: ProjectSource) => Number(project.allow_merge_on_skipped_pipeline) === 1),
  only_allow_merge_if_all_discussions_are_resolved: field.boolean(({ project }: ProjectSource) => Number(project.only_allow_merge_if_all_discussions_are_resolved) === 1),
  remove_source_branch_after_merge: field.boolean(({ project }: ProjectSource) => Number(project.remove_source_branch_after_merge) === 1),
  printing_merge_request_link_enabled: field.boolean(({ project }: ProjectSource) => Number(project.printing_merge_request_link_enabled) === 1),
  merge_method: field.string(({ project }: ProjectSource) => project.merge_method),
  squash_option: field.string(({ project }: ProjectSource) => project.squash_option),
  suggestion_commit_message: field.nullableString(({ project }: ProjectSource) => project.suggestion_commit_message),
  merge_commit_template: field.nullableString(({ project }: ProjectSource) => project.merge_commit_template),
  squash_commit_template: field.nullableString(({ project }: ProjectSource) => project.squash_commit_template),
  autoclose_referenced_issues: field.boolean(({ project }: ProjectSource) => Number(project.autoclose_referenced_issues) === 1),
  approvals_before_merge: field.integer(({ project }: ProjectSource) => Number(project.approvals_before_merge)),
  reset_approvals_on_push: field.boolean(({ project }: ProjectSource) => Number(project.reset_approvals_on_push) === 1),
  merge_requests_author_approval: field.boolean(({ project }: ProjectSource) => Number(project.merge_requests_author_approval) === 1),
  merge_requests_disable_committers_approval: field.boolean(({ project }: ProjectSource) => Number(project.merge_requests_disable_committers_approval) === 1),
  mr_default_target_self: field.boolean(({ project }: ProjectSource) => Number(project.mr_default_target_self) === 1),
  ...storedFields(PROJECT_STORED_SETTINGS, PROJECT_SETTING_ALIASES),
  archived: field.boolean((_: ProjectSource) => false),
  _links: {
    schema: { type: 'object', properties: { self: { type: 'string' }, issues: { type: 'string' }, members: { type: 'string' }, events: { type: 'string' } }, required: ['self', 'issues', 'members', 'events'] },
    value: ({ baseUrl, project }: ProjectSource) => ({
      self: `${baseUrl}/api/v4/projects/${project.id}`,
      issues: `${baseUrl}/api/v4/projects/${project.id}/issues`,
      members: `${baseUrl}/api/v4/projects/${project.id}/members`,
      events: `${baseUrl}/api/v4/projects/${project.id}/events`,
    }),
  },
  permissions: field.optional<ProjectSource, ProjectPermissions>({
    schema: { type: 'object', properties: { project_access: ACCESS, group_access: { type: 'null' } }, required: ['project_access', 'group_access'] },
    value: ({ permissions }) =>
      permissions && {
        // No membership (a public or internal project read by a non-member): null, as GitLab.
        project_access: permissions.level ? { access_level: permissions.level, notification_level: 3 } : null,
        group_access: null,
      },
  }),
};

interface ProjectPermissions {
  project_access: { access_level: number; notification_level: number } | null;
  group_access: null;
}

export const PROJECT_ENTITY = defineEntity<ProjectSource>()(PROJECT_FIELDS);

/** GitLab's BasicProjectDetails (`simple=true`): the project without its settings and permissions. */
export const PROJECT_SIMPLE_ENTITY = defineEntity<ProjectSource>()(
  pickFields(PROJECT_FIELDS, ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics', 'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace']),
);

export function projectEntity(config: UrlConfig, project: ProjectRow, namespace: NamespaceRow, permissions?: { level: number }) {
  return PROJECT_ENTITY.present(projectSource(config, project, namespace, permissions));
}

export function projectSimpleEntity(config: UrlConfig, project: ProjectRow, namespace: NamespaceRow) {
  return PROJECT_SIMPLE_ENTITY.present(projectSource(config, project, namespace));
}

/**
 * The Project entity as JSON, kept by the versions of the project and namespace rows (rows read by a
 * SELECT: platform/http/entity-cache.ts); `permissions`, the caller's, added after.
 */
export function projectJson(caches: InstanceCaches, config: UrlConfig, project: ProjectRow, namespace: NamespaceRow, permissions?: { level: number }, forkedFrom?: string): string {
  const serialize = () => PROJECT_ENTITY.serialize(PROJECT_ENTITY.present(projectSource(config, project, namespace)));
  const versioned = project.version !== undefined && namespace.version !== undefined;
  const cached = versioned ? cachedJson(caches, projectJsonKey({ id: project.id, version: project.version, namespace_id: namespace.id, namespace_version: namespace.version }), serialize) : serialize();
  const json = withForkedFrom(cached, forkedFrom);
  if (!permissions) return json;
  // As PROJECT_FIELDS.permissions writes it.
  const access = permissions.level ? `{"access_level":${Number(permissions.level)},"notification_level":3}` : 'null';
  return withMember(json, 'permissions', `{"project_access":${access},"group_access":null}`);
}

/** What names a kept Project entity: the ids and versions of the project and namespace rows it shows. */
export interface ProjectJsonKey {
  id: number;
  version: number;
  namespace_id: number;
  namespace_version: number;
}

/** The key a Project entity is kept under; with the upstream shown beside it, what identifies its JSON. */
export function projectJsonKey(key: ProjectJsonKey): string {
  return `project:${key.id}:${key.version}:${key.namespace_id}:${key.namespace_version}`;
}

/** The upstream, where the caller may read it (fork-network.ts's forkedFromJson): never kept. */
function withForkedFrom(json: string, forkedFrom: string | undefined): string {
  return forkedFrom === undefined ? json : withMember(json, 'forked_from_project', forkedFrom);
}

/**
 * The kept Project entity `key` names, as projectJson without permissions writes it; undefined when
 * it is not kept (then read the rows and call projectJson, which keeps it). A listing reads only
 * the keys of its page and the rows of the entities it misses.
 */
export function keptProjectJson(caches: InstanceCaches, key: ProjectJsonKey, forkedFrom?: string): string | undefined {
  const kept = keptJson(caches, projectJsonKey(key));
  return kept === undefined ? undefined : withForkedFrom(kept, forkedFrom);
}
