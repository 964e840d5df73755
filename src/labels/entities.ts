// Wire shapes of labels (GitLab's LabelBasic, Label, ProjectLabel and GroupLabel entities), fields
// listed explicitly. `description_html` is the description escaped: GitLab renders it with its
// single-line Markdown pipeline, which for plain text is the same.
import type { Selectable } from 'kysely';
import type { LabelsTable } from '../platform/db/tables/issues.js';
import { escapeHtml } from '../platform/web/html.js';
import { textColorFor } from './colors.js';
import type { IssueCounts } from './labels-queries.js';

export type LabelRow = Selectable<LabelsTable>;
/** What an issue shows of each of its labels (issues' presentation reads only these columns). */
export type IssueLabel = Pick<LabelRow, 'id' | 'title' | 'color' | 'description' | 'archived'>;

export function labelBasicEntity(label: IssueLabel) {
  return {
    id: Number(label.id),
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: label.description === null ? '' : escapeHtml(label.description),
    text_color: textColorFor(label.color),
    remove_on_close: false,
    archived: Number(label.archived) === 1,
  };
}

function countsOf(counts: IssueCounts | undefined) {
  return counts ? { open_issues_count: counts.opened, closed_issues_count: counts.closed, open_merge_requests_count: 0 } : {};
}

/** A label as a group's listing shows it (GroupLabel); `subscribed`: the caller's (subscriptions.ts). */
export function labelEntity(label: LabelRow, subscribed: boolean, counts?: IssueCounts) {
  return { ...labelBasicEntity(label), ...countsOf(counts), subscribed };
}

/** A label as a project's listing shows it (ProjectLabel): its priority there, and whose it is. */
export function projectLabelEntity(label: LabelRow, subscribed: boolean, counts?: IssueCounts) {
  return { ...labelEntity(label, subscribed, counts), priority: label.project_id === null ? null : label.priority, is_project_label: label.project_id !== null };
}
