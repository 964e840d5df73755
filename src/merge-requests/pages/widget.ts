// The merge widget of the Overview: whether the merge request can merge and, when it cannot, the
// first reason in GitLab's order (detailed_merge_status: checking, draft, conflicts, rebase needed,
// unresolved threads, approvals, pipeline), the approvals, and for those who may merge into the
// target branch a Merge button with the squash and delete-source-branch options — while the pipeline
// still runs, "Set to auto-merge" with the same options (merge when it succeeds), and once set, who
// set it and "Cancel auto-merge". While the background check runs the widget asks again with htmx
// until it has an answer. Other features add their sections through mergeRequestHooks (CI: exposed
// artifacts), so merge requests import none of them.
import type { ProjectAccess, ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { presentMergeRequest } from '../present-one.js';
import { approvalsEntity } from '../approve-merge-request.js';
import type { MergeRequestRow } from '../rows.js';
import { when } from './time.js';
import { ACTIVE } from '../../commit-statuses/api.js';
import { latestDiffOf } from '../finder.js';
import { mergeRequestHooks } from '../hooks.js';
import { branchHead, readRepository, testMerge } from '../mr-repository.js';

type Entity = Awaited<ReturnType<typeof presentMergeRequest>>;
type Approvals = Awaited<ReturnType<typeof approvalsEntity>>;

const BLOCKED: Record<string, string> = {
  draft_status: 'Merge blocked: this merge request is a draft. Mark it as ready before merging.',
  conflict: 'Merge blocked: the source branch has conflicts with the target branch. Resolve them locally and push.',
  need_rebase: 'Merge blocked: the source branch must be rebased onto the target branch (this project merges by fast-forward).',
  broken_status: 'Merge blocked: the source or target branch is missing or cannot be merged.',
  discussions_not_resolved: 'Merge blocked: all threads must be resolved.',
  not_approved: 'Merge blocked: this merge request needs more approvals.',
  ci_must_pass: 'Merge blocked: a successful pipeline (commit status) is required.',
  ci_still_running: 'Merge blocked: the pipeline is still running.',
};

/** The most conflicting files the widget names; past it, how many more. */
const CONFLICTS_SHOWN = 20;

/**
 * The files that conflict, as GitLab lists them for resolution: the test merge of the target branch's
 * head and the latest version's head, worked out again here (one `git merge-tree`, only for a merge
 * request the check found conflicting), so nothing is stored that a push would make stale.
 */
async function conflictsPart(context: PageContext, mr: MergeRequestRow, target: ProjectRow): Promise<Html> {
  const [repoPath, diff] = await Promise.all([readRepository(context.deps, target), latestDiffOf(context.deps.db, mr)]);
  const start = await branchHead(repoPath, mr.target_branch);
  if (repoPath === null || start === null || !diff?.head_commit_sha) return html``;
  const { conflictedPaths } = await testMerge(repoPath, start, diff.head_commit_sha);
  if (conflictedPaths.length === 0) return html``;
  const more = conflictedPaths.length - CONFLICTS_SHOWN;
  return html`<div id="conflicts"><p>Conflicts in ${conflictedPaths.length} file${conflictedPaths.length === 1 ? '' : 's'}:</p><ul>${conflictedPaths.slice(0, CONFLICTS_SHOWN).map((path) => html`<li><code>${path}</code></li>`)}${more > 0 ? html`<li>and ${more} more</li>` : ''}</ul></div>`;
}

function approvalsPart(context: PageContext, self: string, approvals: Approvals): Html {
  const names = approvals.approved_by.map((entry) => html`<a href="/${entry.user.username}">${entry.user.name}</a>`);
  const given = names.length ? html`Approved by ${names.map((name, index) => html`${index ? ', ' : ''}${name}`)}.` : html`No approvals yet.`;
  const required = approvals.approvals_required > 0 ? html` <span data-approvals-left="${approvals.approvals_left}">${approvals.approvals_left > 0 ? `${approvals.approvals_left} more approval${approvals.approvals_left === 1 ? '' : 's'} required.` : 'All required approvals given.'}</span>` : '';
  const button = approvals.user_can_approve
    ? html`<form method="post" action="${self}/approve" class="inline">${csrfField(context)}<button type="submit" id="approve">Approve</button></form>`
    : approvals.user_has_approved
      ? html`<form method="post" action="${self}/unapprove" class="inline">${csrfField(context)}<button type="submit" class="secondary" id="unapprove">Revoke approval</button></form>`
      : '';
  return html`<div class="approvals actions" id="approvals"><span>${given}${required}</span> ${button}</div>`;
}

function mergeForm(context: PageContext, self: string, entity: Entity, target: ProjectRow, auto = false): Html {
  const squashFixed = target.squash_option === 'always' || target.squash_option === 'never';
  return html`<form method="post" action="${self}/merge" id="merge-form" class="actions">${csrfField(context)}
<input type="hidden" name="sha" value="${entity.sha ?? ''}">${auto ? html`<input type="hidden" name="auto_merge" value="1">` : ''}
<span><input type="checkbox" id="merge-remove-source" name="should_remove_source_branch" value="1"${entity.force_remove_source_branch ? html` checked` : ''}> <label for="merge-remove-source">Delete source branch</label></span>
${squashFixed ? html`<span class="muted">${target.squash_option === 'always' ? 'Commits are squashed (required by the project).' : 'Squashing is off in this project.'}</span>` : html`<span><input type="checkbox" id="merge-squash" name="squash" value="1"${entity.squash_on_merge ? html` checked` : ''}> <label for="merge-squash">Squash commits</label></span>`}
${auto ? html`<button type="submit" id="auto-merge-button">Set to auto-merge</button>` : html`<button type="submit" id="merge-button">Merge</button>`}</form>`;
}

/** An armed automatic merge: who set it, and the cancel button for its author and those who may merge. */
function autoMergePart(context: PageContext, self: string, entity: Entity, mr: MergeRequestRow): Html {
  const by = entity.merge_user ? html` by <a href="/${entity.merge_user.username}">${entity.merge_user.name}</a>` : '';
  const mayCancel = context.user && (entity.user.can_merge || Number(mr.author_id) === context.user.id);
  const cancel = mayCancel ? html`<form method="post" action="${self}/cancel_auto_merge" class="inline">${csrfField(context)}<button type="submit" class="secondary" id="cancel-auto-merge">Cancel auto-merge</button></form>` : '';
  return html`<div class="actions" id="auto-merge"><span id="auto-merge-state" data-status="armed">Set${by} to auto-merge when the pipeline succeeds.</span> ${cancel}</div>`;
}

/** The widget as markup; `self` is the merge request's page. */
export async function mergeWidget(context: PageContext, access: ProjectAccess, mr: MergeRequestRow, target: ProjectRow, self: string): Promise<Html> {
  const viewer = context.user ?? null;
  const [entity, approvals] = await Promise.all([
    presentMergeRequest(context.deps, mr, { viewer, from: { projectId: Number(target.id), namespaceId: Number(target.namespace_id) } }),
    approvalsEntity(context.deps, access, mr, target, viewer),
  ]);
  const status = entity.detailed_merge_status;
  let state: Html;
  if (mr.state === 'merged') {
    state = html`<p class="merged" id="merge-state" data-status="merged">Merged${entity.merged_by ? html` by <a href="/${entity.merged_by.username}">${entity.merged_by.name}</a>` : ''} ${when(mr.merged_at)}.${mr.merge_commit_sha ? html` Merge commit <a href="/${target.full_path}/-/commit/${mr.merge_commit_sha}"><code>${mr.merge_commit_sha.slice(0, 8)}</code></a>.` : ''}${mr.squash_commit_sha ? html` Squash commit <code>${mr.squash_commit_sha.slice(0, 8)}</code>.` : ''}</p>`;
  } else if (mr.state === 'closed') {
    state = html`<p id="merge-state" data-status="closed">Closed ${when(mr.closed_at)}. Reopen it to merge.</p>`;
  } else if (status === 'checking' || status === 'unchecked' || mr.state === 'locked') {
    // Ask again until the background check (or the merge in progress) has finished.
    return html`<section class="merge-widget" id="merge-widget" aria-live="polite" hx-get="${self}/widget" hx-trigger="every 1s" hx-swap="outerHTML"><p id="merge-state" data-status="checking">${mr.state === 'locked' ? 'Merging…' : 'Checking whether this merge request can be merged…'}</p></section>`;
  } else if (Number(mr.merge_when_pipeline_succeeds) === 1) {
    state = autoMergePart(context, self, entity, mr);
  } else if ((status === 'mergeable' || status === 'ci_still_running') && entity.user.can_merge && (ACTIVE as readonly string[]).includes(entity.head_pipeline?.status ?? '')) {
    // GitLab's widget while the head pipeline runs: "Set to auto-merge" rather than merging now.
    state = html`<p id="merge-state" data-status="${status}">The pipeline is still running: set this merge request to merge automatically when it succeeds.</p>${mergeForm(context, self, entity, target, true)}`;
  } else if (status === 'mergeable') {
    state = html`<p id="merge-state" data-status="mergeable">Ready to merge!</p>${entity.user.can_merge ? mergeForm(context, self, entity, target) : html`<p class="muted">Only those allowed to merge into <code>${mr.target_branch}</code> can merge this.</p>`}`;
  } else {
    const conflicts = status === 'conflict' ? await conflictsPart(context, mr, target) : html``;
    state = html`<p id="merge-state" data-status="${status}">${BLOCKED[status] ?? `Merge blocked (${status}).`}</p>${conflicts}${status === 'need_rebase' && entity.user.can_merge ? html`<form method="post" action="${self}/rebase" class="actions">${csrfField(context)}<button type="submit" class="secondary" id="rebase">Rebase source branch</button></form>` : ''}`;
  }
  const error = mr.merge_error && mr.state === 'opened' ? html`<p class="error" role="alert">${mr.merge_error}</p>` : '';
  const head = entity.head_pipeline ? { id: Number(entity.head_pipeline.id), projectId: Number(entity.head_pipeline.project_id) } : null;
  const sections = await Promise.all((mergeRequestHooks(context.deps).widgetSections ?? []).map((section) => section(context, { access, mergeRequestId: Number(mr.id), headPipeline: head })));
  return html`<section class="merge-widget" id="merge-widget" aria-live="polite">${approvalsPart(context, self, approvals)}${sections}${error}${state}</section>`;
}
