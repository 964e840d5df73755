// The Changes tab: one version of the merge request's diff (the latest unless `diff_id` names
// another) in the shared diff view, or two versions compared (`start_id`: from that version's head
// to this one's), a version picker, the current threads under their lines, outdated threads listed
// above, the files a page at a time (the diff view's paging: 20 files or 1,500 lines), and on a
// version's own diff a "+" on every line that brings (htmx) a form for a diff note.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canCommentOnMergeRequest } from '../../platform/auth/policies/index.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { fragment, type PageOutcome } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { diffBetween, diffModeOf, renderDiffView, type DiffLinePosition } from '../../repositories/api.js';
import type { MergeRequestDiffRow } from '../rows.js';
import { readRepository } from '../mr-repository.js';
import { versionsOf } from '../review/start-thread.js';
import { isActive } from '../review/diff-threads.js';
import { loadThreads, renderThread } from './discussions.js';
import { load, mergeRequestPage } from './show-page.js';
import { str } from './shared.js';
import { pageOf, returnFields } from './return-to.js';
import { reviewButton, reviewPanel, viewerDrafts } from './review-panel.js';

export const CHANGES_TAB_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/diffs$/;
export const DIFF_NOTE_FORM_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/diff_note_form$/;

function versionLabel(versions: MergeRequestDiffRow[], version: MergeRequestDiffRow): string {
  const number = versions.length - versions.findIndex((other) => Number(other.id) === Number(version.id));
  return `${number === versions.length ? 'latest version' : `version ${number}`} (${(version.head_commit_sha ?? '').slice(0, 8)})`;
}

function picker(self: string, versions: MergeRequestDiffRow[], shown: MergeRequestDiffRow, start: MergeRequestDiffRow | null, mode: string): Html {
  if (versions.length < 2) return html``;
  return html`<form method="get" action="${self}/diffs" class="actions version-picker" id="version-picker">
<label for="diff-id">Version</label><select id="diff-id" name="diff_id">${versions.map((version) => html`<option value="${Number(version.id)}"${Number(version.id) === Number(shown.id) ? html` selected` : ''}>${versionLabel(versions, version)}</option>`)}</select>
<label for="start-id">compared with</label><select id="start-id" name="start_id"><option value="">the target branch</option>${versions.filter((version) => Number(version.id) < Number(shown.id)).map((version) => html`<option value="${Number(version.id)}"${start && Number(version.id) === Number(start.id) ? html` selected` : ''}>${versionLabel(versions, version)}</option>`)}</select>
<input type="hidden" name="view" value="${mode}"><button type="submit" class="secondary">Show</button></form>`;
}

export async function renderChangesTab(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, query } = context;
  const loaded = await load(context, access);
  const { mr, target, latest, self } = loaded;
  const versions = await versionsOf(deps, mr);
  const byId = (id: string | undefined) => (id && /^\d{1,12}$/.test(id) ? versions.find((version) => Number(version.id) === Number(id)) : undefined);
  const shown = byId(query.diff_id) ?? latest ?? versions[0];
  const repoPath = shown ? await readRepository(deps, target) : null;
  if (!shown || !repoPath || !shown.head_commit_sha || !shown.base_commit_sha) return mergeRequestPage(context, access, loaded, 'diffs', html`<p class="empty">Nothing to show: this merge request has no diff.</p>`);
  const start = byId(query.start_id) ?? null;
  const from = start?.head_commit_sha ?? shown.base_commit_sha;
  const mode = diffModeOf(query);
  const [threads, drafts] = await Promise.all([loadThreads(deps, access, mr, shown), viewerDrafts(deps, context, mr)]);
  // Diff notes go on a version's own diff, never on a comparison of two versions.
  const mayComment = !start && context.user ? canCommentOnMergeRequest(access, mr) : false;
  const page = pageOf(query.page);
  const options = { context, access, mr, latest, self, users: threads.users, showWhere: false, reviewing: drafts.length > 0, suggestions: threads.suggestions, awards: threads.awards, changes: { page, view: mode } };
  const keep = (extra: Record<string, string>) => new URLSearchParams({ ...(query.diff_id ? { diff_id: String(shown.id) } : {}), ...(start ? { start_id: String(start.id) } : {}), ...(page > 1 ? { page: String(page) } : {}), ...extra }).toString();
  const files = await diffBetween(repoPath, from, shown.head_commit_sha);
  const diff = await renderDiffView(files, {
    projectPath: access.project.full_path,
    oldSha: from,
    newSha: shown.head_commit_sha,
    mode,
    modeUrl: (next) => `${self}/diffs?${keep({ view: next })}`,
    // A page of files at a time (GitLab loads a merge request's diff in batches too).
    paging: { page, url: (other) => `${self}/diffs?${keep({ ...(mode === 'parallel' ? { view: mode } : {}), page: String(other) })}` },
    comments: {
      threadsFor: (position: DiffLinePosition) => {
        const here = start ? undefined : threads.byLineCode.get(position.lineCode);
        return here?.length ? html`${here.map((thread) => renderThread(options, thread))}` : null;
      },
      formUrl: mayComment
        ? (position: DiffLinePosition) => `${self}/diff_note_form?${new URLSearchParams({ diff_id: String(shown.id), old_path: position.oldPath, new_path: position.newPath, old_line: position.oldLine === null ? '' : String(position.oldLine), new_line: position.newLine === null ? '' : String(position.newLine), line_code: position.lineCode, ...(page > 1 ? { page: String(page) } : {}), ...(mode === 'parallel' ? { view: mode } : {}) }).toString()}`
        : undefined,
    },
  });
  const outdated = start ? [] : threads.threads.filter((thread) => thread.notes[0].type === 'DiffNote' && !isActive(thread.notes[0], shown));
  const body = html`
${reviewPanel(context, self, drafts)}
${picker(self, versions, shown, start, mode)}
${start ? html`<p class="muted" id="comparing">Changes between ${versionLabel(versions, start)} and ${versionLabel(versions, shown)}.</p>` : ''}
${outdated.length ? html`<details class="outdated-threads"><summary>${outdated.length} outdated thread${outdated.length === 1 ? '' : 's'}</summary>${outdated.map((thread) => renderThread({ ...options, showWhere: true }, thread))}</details>` : ''}
${files.length ? diff : html`<p class="empty">No changes.</p>`}`;
  return mergeRequestPage(context, access, loaded, 'diffs', body);
}

/** The row with a diff note form under a line (the diff view's formUrl): the position's fields hidden. */
export async function renderDiffNoteForm(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, query } = context;
  const { mr, self } = await load(context, access);
  if (!canCommentOnMergeRequest(access, mr)) throw new NotFoundError('Merge Request');
  const versions = await versionsOf(deps, mr);
  const version = versions.find((candidate) => String(candidate.id) === str(query.diff_id));
  if (!version?.base_commit_sha || !version.start_commit_sha || !version.head_commit_sha) throw new NotFoundError('Version');
  const drafts = await viewerDrafts(deps, context, mr);
  const lineCode = str(query.line_code);
  const id = `diff-note-${lineCode.replace(/[^A-Za-z0-9_-]/g, '')}`;
  const position: Record<string, string> = {
    base_sha: version.base_commit_sha,
    start_sha: version.start_commit_sha,
    head_sha: version.head_commit_sha,
    position_type: 'text',
    old_path: str(query.old_path),
    new_path: str(query.new_path),
    old_line: str(query.old_line),
    new_line: str(query.new_line),
  };
  const columns = diffModeOf(query) === 'parallel' ? 4 : 3;
  return fragment(html`<tr class="slot diff-note-form"><td colspan="${columns}"><form method="post" action="${self}/notes" class="stacked">${csrfField(context)}
${Object.entries(position).filter(([, value]) => value !== '').map(([name, value]) => html`<input type="hidden" name="position_${name}" value="${value}">`)}
${returnFields({ page: pageOf(query.page), view: diffModeOf(query) })}<input type="hidden" name="line_code" value="${lineCode}">
<label for="${id}">Comment on this line</label><textarea id="${id}" name="note" required></textarea>
<p class="muted">Markdown is supported; a <code>suggestion</code> code block proposes a change to the line.</p>
<p class="actions"><button type="submit">Start a thread</button> ${reviewButton(drafts.length > 0)}</p></form></td></tr>`);
}
