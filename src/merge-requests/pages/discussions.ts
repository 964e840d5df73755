// The threads of a merge request as the pages show them: comments and system notes in order, each
// thread with its notes rendered as Markdown, where a diff thread sits (file, line, outdated), a
// reply form, and Resolve / Unresolve for those who may. The Changes tab puts the same threads
// under their diff lines.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canCommentOnMergeRequest, canResolveThread } from '../../platform/auth/policies/index.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { returnFields, type ChangesPlace } from './return-to.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { isResolvable, noteAwardBlock, noteAwards, usersById, visibleNotes, type NoteRow, type Users } from '../../issues/api.js';
import type { MergeRequestRow } from '../rows.js';
import { readPosition } from '../review/position.js';
import { isActive } from '../review/diff-threads.js';
import type { MergeRequestDiffRow } from '../rows.js';
import { userLink } from './shared.js';
import { reviewButton } from './review-panel.js';
import { latestDiffOf } from '../finder.js';
import { mayPushToBranch } from '../../repositories/api.js';
import { suggestionEntity } from '../review/suggestions/suggestion-entity.js';
import { when } from './time.js';

const NOTES_SHOWN = 2000;

export interface Thread {
  id: string;
  notes: NoteRow[];
  bodies: string[];
}

export interface ThreadView {
  threads: Thread[];
  users: Users;
  /** Threads by the line code of their current position, for the Changes tab. */
  byLineCode: Map<string, Thread[]>;
  suggestions: NoteSuggestions;
  /** Each comment's award emoji, read at once for the page. */
  awards: Awaited<ReturnType<typeof noteAwards>>;
}

/** The suggestions of each diff note (GitLab's entity) and whether the viewer may apply them. */
export interface NoteSuggestions {
  byNote: Map<number, ReturnType<typeof suggestionEntity>[]>;
  canApply: boolean;
}

async function loadSuggestions(deps: Deps, access: ProjectAccess, mr: MergeRequestRow, notes: NoteRow[]): Promise<NoteSuggestions> {
  const diffNotes = notes.filter((note) => note.type === 'DiffNote');
  const rows = diffNotes.length ? await deps.db.selectFrom('suggestions').selectAll().where('note_id', 'in', diffNotes.map((note) => Number(note.id))).orderBy('note_id').orderBy('relative_order').execute() : [];
  const byNote = new Map<number, ReturnType<typeof suggestionEntity>[]>();
  if (rows.length === 0) return { byNote, canApply: false };
  const latest = await latestDiffOf(deps.db, mr);
  for (const note of diffNotes) {
    const own = rows.filter((row) => Number(row.note_id) === Number(note.id));
    if (own.length) byNote.set(Number(note.id), own.map((row) => suggestionEntity(row, readPosition(note.position), { active: isActive(note, latest), mrState: mr.state })));
  }
  return { byNote, canApply: access.user !== null && (await mayPushToBranch(deps, access, mr.source_branch)) };
}

/** Every note of the merge request, grouped in threads in the order their first notes came. */
export async function loadThreads(deps: Deps, access: ProjectAccess, mr: MergeRequestRow, latest: MergeRequestDiffRow | null): Promise<ThreadView> {
  const notes = await visibleNotes(deps, access.user, await deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).orderBy('id').limit(NOTES_SHOWN).execute(), access);
  const users = await usersById(deps.db, [...notes.map((note) => note.author_id), ...notes.map((note) => note.resolved_by_id)].filter((id): id is number => id !== null).map(Number));
  const bodies = await Promise.all(notes.map((note) => renderGitlabMarkdown(deps, note.body, { project: access })));
  const threads = new Map<string, Thread>();
  notes.forEach((note, index) => {
    const key = note.discussion_id ?? `note-${note.id}`;
    const thread = threads.get(key) ?? { id: key, notes: [], bodies: [] };
    thread.notes.push(note);
    thread.bodies.push(bodies[index]);
    threads.set(key, thread);
  });
  const byLineCode = new Map<string, Thread[]>();
  for (const thread of threads.values()) {
    const first = thread.notes[0];
    if (first.type !== 'DiffNote' || !first.line_code || !isActive(first, latest)) continue;
    byLineCode.set(first.line_code, [...(byLineCode.get(first.line_code) ?? []), thread]);
  }
  const awards = await noteAwards(deps.db, notes.filter((note) => Number(note.system) !== 1).map((note) => Number(note.id)));
  return { threads: [...threads.values()], users, byLineCode, suggestions: await loadSuggestions(deps, access, mr, notes), awards };
}

function resolvedOf(thread: Thread): boolean {
  const resolvable = thread.notes.filter(isResolvable);
  return resolvable.length > 0 && resolvable.every((note) => note.resolved_at !== null);
}

function whereOnDiff(thread: Thread, latest: MergeRequestDiffRow | null, self: string): Html {
  const first = thread.notes[0];
  if (first.type !== 'DiffNote') return html``;
  const position = readPosition(first.position);
  if (!position) return html``;
  const path = position.new_path ?? position.old_path ?? '';
  const line = position.new_line ?? position.old_line;
  const outdated = !isActive(first, latest);
  return html`<p class="thread-where"><a href="${self}/diffs${first.line_code ? `#${first.line_code}` : ''}"><code>${path}</code>${line ? ` line ${line}` : ''}</a>${outdated ? html` <span class="badge" data-outdated>Outdated</span>` : ''}</p>`;
}

export interface ThreadRenderOptions {
  context: PageContext;
  access: ProjectAccess;
  mr: MergeRequestRow;
  latest: MergeRequestDiffRow | null;
  self: string;
  users: Users;
  /** Whether to say where a diff thread is (the Overview does, the diff itself does not need to). */
  showWhere: boolean;
  /** The viewer has pending review comments: the reply form's second button says "Add to review". */
  reviewing?: boolean;
  suggestions?: NoteSuggestions;
  /** The comments' award emoji (ThreadView.awards): each comment gets its reactions block. */
  awards?: ThreadView['awards'];
  /** Shown on the Changes tab: its forms come back to this page of files and view (return-to.ts). */
  changes?: ChangesPlace;
}

/** A suggestion as the change it proposes: the lines it replaces, then what replaces them. */
function suggestedChange(suggestion: { from_content: string; to_content: string }): Html {
  const lines = (text: string) => text.split(/(?<=\n)/).filter((line) => line !== '');
  return html`<pre class="suggestion-diff">${lines(suggestion.from_content).map((line) => html`<del>- ${line}</del>`)}${lines(suggestion.to_content).map((line) => html`<ins>+ ${line}</ins>`)}</pre>`;
}

/** Under a diff note: each suggestion's change and state, with "Apply suggestion" for those who may. */
function suggestionBar(options: ThreadRenderOptions, note: NoteRow): Html {
  const suggestions = options.suggestions?.byNote.get(Number(note.id)) ?? [];
  return html`${suggestions.map((suggestion) => html`<div class="suggestion-bar" data-suggestion="${suggestion.id}">${suggestedChange(suggestion)}<span class="muted">Suggestion for line${suggestion.from_line === suggestion.to_line ? ` ${suggestion.from_line}` : `s ${suggestion.from_line}–${suggestion.to_line}`}</span>
${suggestion.applied ? html`<span class="badge">Applied</span>` : suggestion.appliable && options.suggestions?.canApply ? html`<form method="post" action="${options.self}/suggestions/${suggestion.id}/apply" class="inline">${csrfField(options.context)}${returnFields(options.changes)}<button type="submit" class="secondary">Apply suggestion</button></form>` : html`<span class="badge">Can't be applied</span>`}</div>`)}`;
}

export function renderThread(options: ThreadRenderOptions, thread: Thread): Html {
  const { context, access, mr, self, users } = options;
  const first = thread.notes[0];
  const system = Number(first.system) === 1;
  const reactions = (note: NoteRow) => (options.awards ? noteAwardBlock(context, access, self, note, options.awards) : '');
  const notes = thread.notes.map((note, index) => html`<article class="note${system ? ' system' : ''}" id="note_${note.id}"><p class="meta">${userLink(users, note.author_id)} · ${when(note.created_at)}</p><div class="markdown">${raw(thread.bodies[index])}</div>${suggestionBar(options, note)}${reactions(note)}</article>`);
  if (system) return html`${notes}`;
  const resolvable = thread.notes.some(isResolvable);
  const resolved = resolvedOf(thread);
  const mayComment = context.user ? canCommentOnMergeRequest(access, mr) : false;
  const mayResolve = resolvable && context.user ? canResolveThread(access, mr) : false;
  const resolver = resolved ? thread.notes.find((note) => note.resolved_by_id !== null) : undefined;
  const formId = `reply-${thread.id}`;
  return html`<div class="thread${resolved ? ' resolved' : ''}" id="discussion_${thread.id}" data-discussion="${thread.id}">
${options.showWhere ? whereOnDiff(thread, options.latest, self) : ''}${notes}
${resolved ? html`<p class="muted resolved-by">Resolved${resolver ? html` by ${userLink(users, resolver.resolved_by_id)}` : ''}.</p>` : ''}
<div class="actions">
${mayComment ? html`<details class="reply"><summary>Reply</summary><form method="post" action="${self}/notes" class="stacked">${csrfField(context)}<input type="hidden" name="discussion_id" value="${thread.id}">${returnFields(options.changes)}<label for="${formId}">Reply</label><textarea id="${formId}" name="note" required></textarea><p class="actions"><button type="submit">Reply</button> ${reviewButton(options.reviewing ?? false)}</p></form></details>` : ''}
${mayResolve ? html`<form method="post" action="${self}/discussions/${thread.id}/resolve" class="inline">${csrfField(context)}<input type="hidden" name="resolved" value="${resolved ? '0' : '1'}">${returnFields(options.changes)}<button type="submit" class="secondary">${resolved ? 'Unresolve thread' : 'Resolve thread'}</button></form>` : ''}
</div></div>`;
}
