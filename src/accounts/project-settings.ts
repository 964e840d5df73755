// Project attributes with a column each that POST /projects and PUT /projects/:id take as sent.
import { p, type ParamRule } from '../platform/http/params.js';
import { ValidationError } from '../platform/errors.js';

/**
 * Project attributes stored as the API gives them, one line each: the parameter's rule (params.ts),
 * its value written to the column of the same name (booleans as 1 and 0). PUT /projects/:id takes
 * them (project-edit-routes.ts) and the Project entity shows them (entities.ts). Attributes with
 * rules of their own (names, paths, visibility, the default branch) are handled below.
 */
export const PROJECT_SETTINGS = {
  description: p.string.optional(),
  // Merge requests (merge-requests/): how they merge and what must hold first.
  merge_method: p.string.optional({ values: ['merge', 'rebase_merge', 'ff'] }),
  squash_option: p.string.optional({ values: ['never', 'always', 'default_on', 'default_off'] }),
  only_allow_merge_if_pipeline_succeeds: p.boolean.optional(),
  allow_merge_on_skipped_pipeline: p.boolean.optional(),
  only_allow_merge_if_all_discussions_are_resolved: p.boolean.optional(),
  resolve_outdated_diff_discussions: p.boolean.optional(),
  remove_source_branch_after_merge: p.boolean.optional(),
  printing_merge_request_link_enabled: p.boolean.optional(),
  autoclose_referenced_issues: p.boolean.optional(),
  // GitLab's ProjectSetting and Project length validations.
  merge_commit_template: p.string.optional({ max: 500 }),
  squash_commit_template: p.string.optional({ max: 500 }),
  suggestion_commit_message: p.string.optional({ max: 255 }),
  // Approvals (GitLab EE's project settings; Kiln's approve-merge-request.ts obeys them).
  approvals_before_merge: p.integer.optional(),
  reset_approvals_on_push: p.boolean.optional(),
  merge_requests_author_approval: p.boolean.optional(),
  merge_requests_disable_committers_approval: p.boolean.optional(),
  mr_default_target_self: p.boolean.optional(),
} satisfies Record<string, ParamRule>;

export type ProjectSettings = { [K in keyof typeof PROJECT_SETTINGS]?: unknown };

/** The columns PROJECT_SETTINGS write: booleans as 1 and 0; a blank template or message is no template (the default applies). */
export function settingColumns(settings: ProjectSettings | undefined): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(settings ?? {})) {
    if (value !== undefined) columns[column] = typeof value === 'boolean' ? Number(value) : value === '' && column !== 'description' ? null : value;
  }
  return columns;
}

/** GitLab's numericality validation of the approvals setting. */
export function settingsProblems(errors: Record<string, string[]>, settings: ProjectSettings | undefined): void {
  const approvals = settings?.approvals_before_merge;
  if (typeof approvals === 'number' && approvals < 0) errors.approvals_before_merge = ['must be greater than or equal to 0'];
}

/** Topics as GitLab keeps them: trimmed, without blanks or duplicates (case-insensitively), at most 255 characters each. */
export function cleanTopics(topics: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of topics) {
    const topic = raw.trim();
    if (topic === '' || seen.has(topic.toLowerCase())) continue;
    if ([...topic].length > 255) throw new ValidationError({ topics: ['is too long (maximum is 255 characters)'] });
    seen.add(topic.toLowerCase());
    result.push(topic);
  }
  return result;
}

