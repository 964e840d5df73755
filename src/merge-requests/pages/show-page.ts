// One merge request: the Overview (description, people, labels, milestone, the merge widget, the
// actions its viewer may take, every thread and a comment form) and the Commits tab.
import type { ProjectAccess, ProjectRow } from '../../platform/auth/subjects.js';
import { canCommentOnMergeRequest, canOnProject } from '../../platform/auth/policies/index.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { fragment, page, type PageOutcome } from '../../platform/web/page.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { awardBlock, toggleAwardPost, toggleNoteAwardPost, usersById } from '../../issues/api.js';
import type { MergeRequestDiffRow, MergeRequestRow } from '../rows.js';
import { assigneeIdsOf, latestDiffOf, reviewerIdsOf } from '../finder.js';
import { isDraftTitle } from '../draft.js';
import { readRepository } from '../mr-repository.js';
import { versionCommits } from '../version-reads.js';
import { loadThreads, renderThread } from './discussions.js';
import { mergeRequestHeader, mergeRequestHeading, type MergeRequestTab } from './header.js';
import { mergeWidget } from './widget.js';
import { mergeRequestCommits } from './commits.js';
import { loadMergeRequest, mergeRequestSidebar, mergeRequestsRoot, userLink } from './shared.js';
import { reviewButton, reviewPanel, viewerDrafts } from './review-panel.js';
import { attachControl } from '../../uploads/api.js';
import { mergeRequestHooks } from '../hooks.js';

export const MERGE_REQUEST_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})$/;
export const COMMITS_TAB_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/commits$/;
export const WIDGET_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/widget$/;
export const AWARD_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/award$/;
export const NOTE_AWARD_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/notes\/(?<note>\d{1,12})\/award$/;

export interface Loaded {
  mr: MergeRequestRow;
  target: ProjectRow;
  latest: MergeRequestDiffRow | null;
  self: string;
  base: string;
}

export async function load(context: PageContext, access: ProjectAccess): Promise<Loaded> {
  const { mr, target } = await loadMergeRequest(context.deps, access, context.match.iid);
  return { mr, target, latest: await latestDiffOf(context.deps.db, mr), self: `${mergeRequestsRoot(access)}/${mr.iid}`, base: `/${access.project.full_path}` };
}

/** The frame every tab shares: heading, header with tabs, sidebar. */
export async function mergeRequestPage(context: PageContext, access: ProjectAccess, loaded: Loaded, tab: MergeRequestTab, body: Html): Promise<PageOutcome> {
  const { deps } = context;
  const { mr, latest, self, base } = loaded;
  const [users, notes] = await Promise.all([
    usersById(deps.db, [mr.author_id]),
    deps.db.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('n')).where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).where('system', '=', 0).executeTakeFirst(),
  ]);
  const header = mergeRequestHeader({ mr, users, self, projectBase: base, tab, counts: { notes: Number(notes?.n ?? 0), commits: latest ? Number(latest.commits_count) : null, changes: latest?.real_size ?? null } });
  const names = { overview: '', commits: 'Commits · ', diffs: 'Changes · ' };
  return page({ title: `${names[tab]}${mr.title} (!${mr.iid}) · Merge requests · ${access.project.name}`, heading: mergeRequestHeading(mr), body: html`${header}${body}`, sidebar: await mergeRequestSidebar(deps, access) });
}

function people(label: string, id: string, ids: number[], users: Parameters<typeof userLink>[0]): Html {
  return html`<dt>${label}</dt><dd id="${id}">${ids.length ? ids.map((userId, index) => html`${index ? ', ' : ''}${userLink(users, userId)}`) : html`<span class="muted">None</span>`}</dd>`;
}

function actionsFor(context: PageContext, access: ProjectAccess, mr: MergeRequestRow, self: string): Html {
  if (!context.user || !canOnProject(access, 'update_merge_request')) return html``;
  const button = (event: string, label: string, kind = 'secondary') => html`<form method="post" action="${self}/state" class="inline">${csrfField(context)}<input type="hidden" name="event" value="${event}"><button type="submit" class="${kind}" data-event="${event}">${label}</button></form>`;
  const open = mr.state === 'opened';
  return html`<div class="actions" id="mr-actions">
${mr.state !== 'merged' ? html`<a class="button secondary" href="${self}/edit" id="edit-merge-request">Edit</a>` : ''}
${open ? (isDraftTitle(mr.title) ? button('ready', 'Mark as ready') : button('draft', 'Mark as draft')) : ''}
${open ? button('close', 'Close merge request') : mr.state === 'closed' ? button('reopen', 'Reopen merge request') : ''}
</div>`;
}

/** The reader's to-do button (registered by the todos feature, which knows merge requests): none for anonymous readers. */
function todoButtonOf(context: PageContext, mr: MergeRequestRow, self: string): Promise<Html> {
  const button = mergeRequestHooks(context.deps).todoButton;
  return context.user && button ? button(context, { id: Number(mr.id), projectId: Number(mr.target_project_id) }, self) : Promise.resolve(html``);
}

export async function renderOverview(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps } = context;
  const loaded = await load(context, access);
  const { mr, target, latest, self } = loaded;
  const [assignees, reviewers, labels, milestone, description, threads, widget, awards, todo] = await Promise.all([
    assigneeIdsOf(deps, Number(mr.id)),
    reviewerIdsOf(deps, Number(mr.id)),
    deps.db.selectFrom('merge_request_label_links as ll').innerJoin('labels as l', 'l.id', 'll.label_id').select(['l.title']).where('ll.merge_request_id', '=', Number(mr.id)).orderBy('l.title').execute(),
    mr.milestone_id === null ? Promise.resolve(undefined) : deps.db.selectFrom('milestones').select(['id', 'title', 'project_id']).where('id', '=', Number(mr.milestone_id)).executeTakeFirst(),
    mr.description ? renderGitlabMarkdown(deps, mr.description, { project: access }) : Promise.resolve(''),
    loadThreads(deps, access, mr, latest),
    mergeWidget(context, access, mr, target, self),
    awardBlock(context, access, { type: 'MergeRequest', id: Number(mr.id) }, `${self}/award`),
    todoButtonOf(context, mr, self),
  ]);
  const drafts = await viewerDrafts(deps, context, mr);
  const users = await usersById(deps.db, [...assignees, ...reviewers]);
  const mayComment = context.user ? canCommentOnMergeRequest(access, mr) : false;
  const options = { context, access, mr, latest, self, users: threads.users, showWhere: true, reviewing: drafts.length > 0, suggestions: threads.suggestions, awards: threads.awards };
  const body = html`
<div class="markdown description" id="mr-description">${description ? raw(description) : html`<p class="muted">No description.</p>`}</div>
${awards}
${todo}
<dl class="mr-facts">
${people('Assignee', 'mr-assignees', assignees, users)}
${people('Reviewers', 'mr-reviewers', reviewers, users)}
<dt>Labels</dt><dd id="mr-labels">${labels.length ? labels.map((label) => html`<span class="badge">${label.title}</span> `) : html`<span class="muted">None</span>`}</dd>
<dt>Milestone</dt><dd id="mr-milestone">${milestone ? (milestone.project_id !== null ? html`<a href="/${access.project.full_path}/-/milestones/${Number(milestone.id)}">${milestone.title}</a>` : milestone.title) : html`<span class="muted">None</span>`}</dd>
</dl>
${widget}
${actionsFor(context, access, mr, self)}
${reviewPanel(context, self, drafts)}
<h2>Activity</h2>
<div id="notes">${threads.threads.map((thread) => renderThread(options, thread))}</div>
${threads.threads.length === 0 ? html`<p class="muted">No comments yet.</p>` : ''}
${
  mayComment
    ? html`<form method="post" action="${self}/notes" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p>${attachControl(access.project.full_path)}<p><input type="checkbox" id="note-thread" name="thread" value="1"> <label for="note-thread">Start a thread (it can be resolved)</label></p><p class="actions"><button type="submit">Comment</button> ${reviewButton(drafts.length > 0)}</p></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(self)}">Sign in</a> to comment.</p>`
}`;
  return mergeRequestPage(context, access, loaded, 'overview', body);
}

/** Toggle the viewer's award emoji on the merge request (issues' award-bar.ts). */
export async function postAward(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { mr, self } = await load(context, access);
  return toggleAwardPost(context, access, { type: 'MergeRequest', id: Number(mr.id) }, self, `${self}/award`);
}

/** Toggle the viewer's award emoji on one comment (never a system note): the block comes back in place. */
export async function postNoteAward(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { mr, self } = await load(context, access);
  return toggleNoteAwardPost(context, access, { type: 'MergeRequest', id: Number(mr.id) }, self);
}

/** The widget alone (htmx asks for it while the mergeability check runs). */
export async function renderWidget(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { mr, target, self } = await load(context, access);
  return fragment(await mergeWidget(context, access, mr, target, self));
}

export async function renderCommitsTab(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const loaded = await load(context, access);
  const repoPath = loaded.latest ? await readRepository(context.deps, loaded.target) : null;
  const commits = repoPath && loaded.latest ? await versionCommits(repoPath, loaded.latest) : [];
  return mergeRequestPage(context, access, loaded, 'commits', html`<h2 class="visually-hidden">Commits</h2>${mergeRequestCommits(loaded.base, commits)}`);
}
