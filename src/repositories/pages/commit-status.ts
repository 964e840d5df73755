// A commit's status icon on the repository pages (GitLab's CI status badge): the latest pipeline's
// status, linked to where its newest status points. Read through the hook commit statuses register
// (repositories must not import them), for all the commits of a page at once.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { repositoryHooks, type CommitStatusBadge } from '../hooks.js';

/** GitLab's words for the statuses (`success` reads "passed"). */
const LABELS: Record<string, string> = { success: 'passed', canceled: 'canceled', waiting_for_resource: 'waiting for resource' };

export async function commitStatusBadges(deps: Deps, project: ProjectRow, shas: string[]): Promise<Map<string, CommitStatusBadge>> {
  return (await repositoryHooks(deps).commitStatuses?.(Number(project.id), shas)) ?? new Map();
}

export function statusBadge(badge: CommitStatusBadge | undefined): Html | null {
  if (!badge) return null;
  const label = LABELS[badge.status] ?? badge.status;
  const text = html`<span class="status status-${badge.status}" data-ci-status="${badge.status}">Pipeline #${badge.pipelineId} ${label}</span>`;
  return badge.targetUrl ? html`<a class="ci-status" href="${badge.targetUrl}" rel="nofollow noreferrer" title="Pipeline #${badge.pipelineId}: ${label}">${text}</a> ` : html`${text} `;
}
