import { sql, type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Merge requests (issue 34): the merge request itself (GitLab's merge_requests, with the columns of
// merge_request_metrics it shows: merged_by/at, closed_by/at), its assignees, reviewers and labels,
// its diff versions (merge_request_diffs: the SHAs of each push; the diff itself is read from git),
// its approvals, and the project settings merge requests obey (GitLab keeps them on projects,
// project_settings and project_features; Kiln keeps them on the project row, beside
// issues_access_level, so the policies read them from the row they already have).
//
// Notes on merge requests are rows of `notes` with noteable_type 'MergeRequest' (as GitLab's), so
// user_notes_count and the resolvable-thread checks are computed from `notes` once review lands.
export async function up(db: Kysely<any>): Promise<void> {
  const projectColumns: Array<[string, 'text' | 'integer', unknown]> = [
    ['merge_requests_access_level', 'text', 'enabled'],
    ['merge_method', 'text', 'merge'],
    ['squash_option', 'text', 'default_off'],
    ['only_allow_merge_if_pipeline_succeeds', 'integer', 0],
    ['allow_merge_on_skipped_pipeline', 'integer', 0],
    ['only_allow_merge_if_all_discussions_are_resolved', 'integer', 0],
    ['resolve_outdated_diff_discussions', 'integer', 0],
    ['remove_source_branch_after_merge', 'integer', 1],
    ['printing_merge_request_link_enabled', 'integer', 1],
    ['autoclose_referenced_issues', 'integer', 1],
    ['approvals_before_merge', 'integer', 0],
    ['reset_approvals_on_push', 'integer', 1],
    ['merge_requests_author_approval', 'integer', 0],
    ['merge_requests_disable_committers_approval', 'integer', 0],
    ['mr_default_target_self', 'integer', 0],
  ];
  for (const [name, type, value] of projectColumns) {
    await db.schema.alterTable('projects').addColumn(name, type, (c) => c.notNull().defaultTo(value)).execute();
  }
  for (const name of ['merge_commit_template', 'squash_commit_template', 'suggestion_commit_message']) {
    await db.schema.alterTable('projects').addColumn(name, 'text').execute();
  }

  await withId(db, db.schema.createTable('merge_requests'))
    // The target project: GitLab's project_id of the entity, and the project whose iid sequence it takes.
    .addColumn('target_project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    // The source project (the fork for a fork's merge request); null once that project is deleted.
    .addColumn('source_project_id', 'bigint', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('source_branch', 'text', (c) => c.notNull())
    .addColumn('target_branch', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened')) // opened | closed | locked | merged
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0)) // kept equal to the title's prefix
    .addColumn('author_id', 'bigint', (c) => c.notNull())
    .addColumn('milestone_id', 'bigint', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('discussion_locked', 'integer') // null: never set, as GitLab shows it
    .addColumn('squash', 'integer', (c) => c.notNull().defaultTo(0))
    // merge_params.force_remove_source_branch (create/update) and the choice made when merging.
    .addColumn('force_remove_source_branch', 'integer')
    .addColumn('should_remove_source_branch', 'integer')
    .addColumn('allow_collaboration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merge_status', 'text', (c) => c.notNull().defaultTo('unchecked'))
    // Why the last check found it unmergeable, beyond merge_status: 'broken_status' (a branch is
    // missing or there are no commits), 'conflict', 'need_rebase' (fast-forward methods); null: none.
    .addColumn('merge_check_reason', 'text')
    .addColumn('merge_error', 'text')
    .addColumn('merge_when_pipeline_succeeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merge_user_id', 'bigint')
    // JSON: the messages, sha and deletion choice stored when an automatic merge is armed.
    .addColumn('merge_params', 'text')
    .addColumn('latest_merge_request_diff_id', 'bigint')
    .addColumn('merge_commit_sha', 'text')
    .addColumn('squash_commit_sha', 'text')
    .addColumn('merge_ref_sha', 'text')
    // Set while a server-side rebase runs (GitLab's rebase_jid): the id of its job.
    .addColumn('rebase_jid', 'text')
    .addColumn('head_pipeline_id', 'bigint')
    .addColumn('merged_by_id', 'bigint')
    .addColumn('merged_at', TIME)
    .addColumn('closed_by_id', 'bigint')
    .addColumn('closed_at', TIME)
    .addColumn('last_edited_at', TIME)
    .addColumn('last_edited_by_id', 'bigint')
    .addColumn('updated_by_id', 'bigint')
    .addColumn('time_estimate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('merge_requests_target_iid', ['target_project_id', 'iid'])
    .execute();
  // GitLab's validate_branches: one open merge request per (target, source project, source branch,
  // target branch). Held by the database, so two nodes creating the same pair at once get one row.
  await db.schema
    .createIndex('merge_requests_one_open_per_branches')
    .on('merge_requests')
    .columns(['target_project_id', 'source_project_id', 'source_branch', 'target_branch'])
    .unique()
    .where(sql.ref('state'), '=', 'opened')
    .execute();
  // Pushes find the merge requests of a branch (source side, then target side).
  await db.schema.createIndex('merge_requests_source').on('merge_requests').columns(['source_project_id', 'source_branch', 'state']).execute();
  await db.schema.createIndex('merge_requests_target').on('merge_requests').columns(['target_project_id', 'target_branch', 'state']).execute();
  await db.schema.createIndex('merge_requests_author').on('merge_requests').columns(['author_id', 'id']).execute();
  await db.schema.createIndex('merge_requests_milestone').on('merge_requests').columns(['milestone_id', 'id']).execute();

  await db.schema
    .createTable('merge_request_assignees')
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('merge_request_assignees_pk', ['merge_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('merge_request_assignees_user').on('merge_request_assignees').columns(['user_id', 'merge_request_id']).execute();

  await db.schema
    .createTable('merge_request_reviewers')
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('unreviewed')) // unreviewed | reviewed | requested_changes | approved
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('merge_request_reviewers_pk', ['merge_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('merge_request_reviewers_user').on('merge_request_reviewers').columns(['user_id', 'merge_request_id']).execute();

  // Labels of merge requests: GitLab's label_links are polymorphic; Kiln's issue links name the issue
  // by a non-null column, so merge requests have links of their own.
  await db.schema
    .createTable('merge_request_label_links')
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('label_id', 'bigint', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('merge_request_label_links_pk', ['merge_request_id', 'label_id'])
    .execute();
  await db.schema.createIndex('merge_request_label_links_label').on('merge_request_label_links').columns(['label_id', 'merge_request_id']).execute();

  // A diff version: made at creation and at every push to the source branch (and a retarget, a
  // reopen, a target force-push). The files and commits are read from git between base and head,
  // which refs/keep-around/<sha> keeps reachable after a force-push.
  await withId(db, db.schema.createTable('merge_request_diffs'))
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('base_commit_sha', 'text')
    .addColumn('start_commit_sha', 'text')
    .addColumn('head_commit_sha', 'text')
    .addColumn('state', 'text', (c) => c.notNull()) // empty | collected | overflow
    .addColumn('real_size', 'text')
    .addColumn('files_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('commits_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merge_request_diffs_merge_request').on('merge_request_diffs').columns(['merge_request_id', 'id']).execute();
  // GET /repository/commits/:sha/merge_requests finds merge requests by a head they had.
  await db.schema.createIndex('merge_request_diffs_head').on('merge_request_diffs').columns(['head_commit_sha']).execute();

  await withId(db, db.schema.createTable('merge_request_approvals'))
    .addColumn('merge_request_id', 'bigint', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('merge_request_approvals_user', ['merge_request_id', 'user_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
