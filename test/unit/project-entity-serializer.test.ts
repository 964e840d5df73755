// The Project entity is one definition (accounts/entities.ts) from which both the object and a
// compiled serialiser come (platform/http/entity.ts). Whatever the entity holds, the serialiser's
// bytes must be JSON.stringify's: the same fields in the same order, the same escapes, nulls kept,
// and the schema the definition makes names exactly the fields the object has.
import { describe, expect, it } from 'vitest';
import { PROJECT_ENTITY, PROJECT_SIMPLE_ENTITY, projectEntity, projectJson, projectSimpleEntity } from '../../src/accounts/entities.js';
import { InstanceCaches } from '../../src/platform/instance-caches.js';
import type { NamespaceRow, ProjectRow } from '../../src/accounts/access.js';

// Every character JSON escapes, quotes and backslashes, non-ASCII, astral, a lone surrogate and the
// line separators, and a long run (the serialiser treats short and long strings apart).
const AWKWARD = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')}"\\/é😀\ud800\u2028\u2029\u007f<tag>&'`;
const LONG = `${'x'.repeat(100)}${AWKWARD}${'y'.repeat(100)}`;
const BASE = { baseUrl: 'https://kiln.example.org:8443/sub', sshUrlPrefix: 'git@kiln.example.org:' };
const TIME = Date.parse('2026-11-24T10:11:12.345Z');

const group: NamespaceRow = { id: 7, kind: 'group', name: 'Top', path: 'top', full_path: 'top/sub', full_path_lower: 'top/sub', parent_id: 3, owner_id: null, visibility: 'internal', description: '', read_only: 0, avatar: null, deletion_scheduled_at: null, created_at: TIME, updated_at: TIME, version: 4, settings: '{}' };
// The merge request settings' defaults (migration 20261228T1311-merge-requests).
const MERGE_REQUEST_SETTINGS = {
  merge_requests_access_level: 'enabled', merge_method: 'merge', squash_option: 'default_off', only_allow_merge_if_pipeline_succeeds: 0,
  allow_merge_on_skipped_pipeline: 0, only_allow_merge_if_all_discussions_are_resolved: 0, resolve_outdated_diff_discussions: 0,
  remove_source_branch_after_merge: 1, printing_merge_request_link_enabled: 1, autoclose_referenced_issues: 1, approvals_before_merge: 0,
  reset_approvals_on_push: 1, merge_requests_author_approval: 0, merge_requests_disable_committers_approval: 0, mr_default_target_self: 0,
  merge_commit_template: null, squash_commit_template: null, suggestion_commit_message: null,
} as const;
const project: ProjectRow = { ...MERGE_REQUEST_SETTINGS, id: 42, namespace_id: 7, name: 'Widget', path: 'widget', full_path: 'top/sub/widget', full_path_lower: 'top/sub/widget', description: 'A widget', visibility: 'private', creator_id: 5, default_branch: 'main', topics: '["one","two"]', issues_access_level: 'enabled', repository_access_level: 'private', star_count: 3, forked_from_project_id: null, forks_count: 2, avatar: null, has_group_links: 0, shared_runners_enabled: 1, group_runners_enabled: 1, created_at: TIME, updated_at: TIME, last_activity_at: TIME + 1, version: 7, settings: '{}' };

const shapes: Array<[string, ProjectRow, NamespaceRow, { level: number } | undefined]> = [
  ['a member of a group project', project, group, { level: 30 }],
  ['a signed-in non-member (project_access null)', project, group, { level: 0 }],
  ['an anonymous caller (no permissions)', project, group, undefined],
  ['awkward text in every string', { ...project, name: AWKWARD, path: 'p', description: LONG, default_branch: AWKWARD, topics: JSON.stringify([AWKWARD, LONG, '']) }, { ...group, name: LONG, full_path: AWKWARD }, { level: 50 }],
  ['avatars, no creator, no topics, issues off', { ...project, avatar: 'logo é.png', creator_id: null, topics: '[]', issues_access_level: 'disabled', star_count: 0 }, { ...group, avatar: 'g.png', parent_id: null }, { level: 10 }],
  ['a personal project', { ...project, full_path: 'alice/widget' }, { ...group, kind: 'user', name: 'Alice', path: 'alice', full_path: 'alice', parent_id: null, owner_id: 5 }, { level: 50 }],
  ['stored settings set, and a broken settings text', { ...project, settings: JSON.stringify({ wiki_access_level: 'disabled', ci_config_path: AWKWARD, build_timeout: 7200, container_expiration_policy_attributes: { cadence: '7d', enabled: true, keep_n: 10, older_than: '90d', name_regex: AWKWARD, name_regex_keep: null, next_run_at: null } }) }, { ...group, settings: '{' }, { level: 40 }],
  ['empty strings and large ids', { ...project, id: 2 ** 31 + 5, description: '', topics: 'not json' }, { ...group, id: 2 ** 31 + 9 }, { level: 40 }],
];

/** The field names at every level, as paths: what the entity has and what the schema names. */
function paths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...paths(inner, `${prefix}${key}.`)]);
}

function schemaPaths(schema: any, prefix = ''): string[] {
  const object = schema.properties ? schema : schema.anyOf?.find((option: any) => option.properties);
  if (!object) return [];
  return Object.entries(object.properties).flatMap(([key, inner]) => [`${prefix}${key}`, ...schemaPaths(inner, `${prefix}${key}.`)]);
}

describe('the Project entity and its compiled serialiser', () => {
  for (const [shape, row, namespace, permissions] of shapes) {
    it(`writes JSON.stringify's bytes for ${shape}`, () => {
      const entity = projectEntity(BASE, row, namespace, permissions);
      expect(PROJECT_ENTITY.serialize(entity)).toBe(JSON.stringify(entity));
      const simple = projectSimpleEntity(BASE, row, namespace);
      expect(PROJECT_SIMPLE_ENTITY.serialize(simple)).toBe(JSON.stringify(simple));
      // Kept by the rows' versions, with the caller's permissions added after: the same bytes, hit or miss.
      const caches = new InstanceCaches();
      for (let round = 0; round < 2; round += 1) expect(projectJson(caches, BASE, row, namespace, permissions)).toBe(JSON.stringify(entity));
    });
  }

  it('keeps the JSON by the versions of the project and namespace rows: a newer version of either is presented anew', () => {
    const caches = new InstanceCaches();
    expect(JSON.parse(projectJson(caches, BASE, project, group)).name).toBe('Widget');
    expect(JSON.parse(projectJson(caches, BASE, { ...project, name: 'Renamed', version: 8 }, group)).name).toBe('Renamed');
    expect(JSON.parse(projectJson(caches, BASE, { ...project, name: 'Renamed', version: 8 }, { ...group, full_path: 'moved', version: 5 })).namespace.full_path).toBe('moved');
  });

  it('names every field of the entity, in the entity\'s order', () => {
    const entity = projectEntity(BASE, project, group, { level: 30 });
    expect(schemaPaths(PROJECT_ENTITY.schema)).toEqual(paths(entity));
    expect(Object.keys(projectEntity(BASE, project, group))).toEqual(Object.keys(entity).filter((key) => key !== 'permissions'));
  });

  it('shows no column that is not a GitLab attribute: has_group_links stays in the row', () => {
    const shared = { ...project, has_group_links: 1 };
    expect(paths(projectEntity(BASE, shared, group, { level: 30 }))).toEqual(paths(projectEntity(BASE, project, group, { level: 30 })));
    expect(projectJson(new InstanceCaches(), BASE, shared, group)).not.toContain('has_group_links');
  });
});
