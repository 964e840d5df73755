// The personal access token of a request together with the project its route names, in one statement
// (resolve-token-with-project.ts): token, user, project, namespace and the user's membership levels.
// A project-scoped API request otherwise reads them in three statements, which on PostgreSQL are three
// round trips. The project's and namespace's columns are prefixed (`p_`, `ns_`) because their names
// collide with the user's; prefetched-project.ts rebuilds the rows from the `as p_…` / `as ns_…` names
// written here, so a column the rows need is added here and nowhere else.
import { templateOf, type Statement } from '../platform/db/statements.js';

export interface TokenWithProjectRow {
  token_id: number;
  scopes: string;
  expires_at: string | null;
  revoked: number;
  last_used_at: number | null;
  // The user's columns a request needs (TokenRow), unprefixed.
  [column: string]: unknown;
  p_id: number | null;
  ns_id: number | null;
  project_level: number | null;
  group_level: number | null;
}

/**
 * The statement's text for the project matched by `match` (with one placeholder, the project's id or
 * path), as the template `q` would make of it: made once for each of the two ways a route names a
 * project. Two statements, not one with `p.id = ? or p.full_path_lower = ?`: SQLite runs that as
 * a lookup by each index, in both places it matches the project (~1.4 µs of the statement's ~15).
 * Placeholders, in order: the project (the chain), today (project members), today (group members),
 * the project (the join), the token's digest.
 */
function template(match: string): TemplateStringsArray {
  const text = `
    with recursive chain(id, parent_id) as (
      select n.id, n.parent_id from projects p join namespaces n on n.id = p.namespace_id where ${match}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select u.id, u.username, u.name, u.state, u.admin, u.otp_required, u.last_activity_on, t.id as token_id, t.scopes, t.expires_at, t.revoked, t.last_used_at,
      p.id as p_id, p.namespace_id as p_namespace_id, p.name as p_name, p.path as p_path, p.full_path as p_full_path,
      p.full_path_lower as p_full_path_lower, p.description as p_description, p.visibility as p_visibility,
      p.creator_id as p_creator_id, p.default_branch as p_default_branch, p.created_at as p_created_at,
      p.updated_at as p_updated_at, p.last_activity_at as p_last_activity_at, p.topics as p_topics,
      p.issues_access_level as p_issues_access_level, p.repository_access_level as p_repository_access_level,
      p.merge_requests_access_level as p_merge_requests_access_level,
      p.merge_method as p_merge_method, p.squash_option as p_squash_option,
      p.only_allow_merge_if_pipeline_succeeds as p_only_allow_merge_if_pipeline_succeeds,
      p.allow_merge_on_skipped_pipeline as p_allow_merge_on_skipped_pipeline,
      p.only_allow_merge_if_all_discussions_are_resolved as p_only_allow_merge_if_all_discussions_are_resolved,
      p.resolve_outdated_diff_discussions as p_resolve_outdated_diff_discussions,
      p.remove_source_branch_after_merge as p_remove_source_branch_after_merge,
      p.printing_merge_request_link_enabled as p_printing_merge_request_link_enabled,
      p.autoclose_referenced_issues as p_autoclose_referenced_issues,
      p.approvals_before_merge as p_approvals_before_merge,
      p.reset_approvals_on_push as p_reset_approvals_on_push,
      p.merge_requests_author_approval as p_merge_requests_author_approval,
      p.merge_requests_disable_committers_approval as p_merge_requests_disable_committers_approval,
      p.mr_default_target_self as p_mr_default_target_self,
      p.merge_commit_template as p_merge_commit_template,
      p.squash_commit_template as p_squash_commit_template,
      p.suggestion_commit_message as p_suggestion_commit_message,
      p.star_count as p_star_count, p.avatar as p_avatar,
      ns.id as ns_id, ns.kind as ns_kind, ns.name as ns_name, ns.path as ns_path, ns.full_path as ns_full_path,
      ns.full_path_lower as ns_full_path_lower, ns.parent_id as ns_parent_id, ns.owner_id as ns_owner_id,
      ns.visibility as ns_visibility, ns.description as ns_description, ns.read_only as ns_read_only,
      ns.created_at as ns_created_at, ns.updated_at as ns_updated_at, ns.avatar as ns_avatar,
      ns.deletion_scheduled_at as ns_deletion_scheduled_at,
      (select max(m.access_level) from members m
        where m.user_id = t.user_id and m.source_type = 'Project' and m.source_id = p.id
          and (m.expires_at is null or m.expires_at >= ?)) as project_level,
      -- \`+c.id\`: not an index key, so SQLite walks the chain and looks members up by their unique
      -- key, instead of building an automatic index on the chain at every run (~1.5 µs of ~18).
      (select max(m.access_level) from chain c
        join members m on m.user_id = t.user_id and m.source_type = 'Namespace' and m.source_id = +c.id
        where m.expires_at is null or m.expires_at >= ?) as group_level
    from personal_access_tokens t
      join users u on u.id = t.user_id
      left join projects p on ${match}
      left join namespaces ns on ns.id = p.namespace_id
    where t.token_digest = ?`;
  const parts = text.split('?');
  if (parts.length !== 6) throw new Error('token-with-project: the statement has five placeholders');
  return templateOf(parts);
}

const BY_ID = template('p.id = ?');
const BY_PATH = template('p.full_path_lower = ?');

/**
 * The token of this digest with its user, and the project named by id or, when `projectId` is 0, by
 * full path (lower case; '' matches nothing). The project columns are null when no project matches.
 */
export function tokenWithProject(digest: string, projectId: number, fullPathLower: string, today: string): Statement {
  if (projectId === 0 && fullPathLower !== '') return { strings: BY_PATH, values: [fullPathLower, today, today, fullPathLower, digest] };
  return { strings: BY_ID, values: [projectId, today, today, projectId, digest] };
}
