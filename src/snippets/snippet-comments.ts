// Comments on a snippet's page: its notes, oldest first, each rendered as Markdown, a comment form for
// whoever may comment (posted to `<snippet>/notes` with the session's CSRF token), and, where the page
// offers them, Edit and Delete on the comments the viewer may change. A project snippet's notes are the
// notes API's rows (snippet-noteable.ts); a personal snippet's are written by its page alone
// (personal-snippet-comment-pages.ts), as GitLab has no notes API for them.
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, raw, type Html } from '../platform/web/html.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { isoTime } from '../platform/clock.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { createNote, noteUserIds, usersById, type NoteRow } from '../issues/api.js';
import { redirect, type PageOutcome } from '../platform/web/page.js';
import { ForbiddenError } from '../platform/errors.js';
import type { SnippetRow } from './finder.js';

/** What the viewer may do with a snippet's comments, and how its Markdown resolves references. */
export interface CommentRules {
  canComment: boolean;
  /** Whether the viewer edits and deletes this comment; absent: the page offers neither. */
  canChange?: (note: NoteRow) => boolean;
  project: ProjectAccess | null;
}

export function projectCommentRules(context: PageContext, access: ProjectAccess): CommentRules {
  const canComment = context.user !== undefined && context.user !== null && canOnProject(access, 'read_snippet') && canOnProject(access, 'create_note');
  return { canComment, project: access };
}

function changeControls(context: PageContext, path: string, note: NoteRow): Html {
  const action = `${path}/notes/${Number(note.id)}`;
  return html`<details class="note-edit"><summary>Edit</summary><form method="post" action="${action}" class="stacked">${csrfField(context)}<label for="note-${Number(note.id)}-body">Comment</label><textarea id="note-${Number(note.id)}-body" name="note" required>${note.body}</textarea><button type="submit">Save comment</button></form></details>
<form method="post" action="${action}/delete" class="inline" data-confirm="Delete this comment?">${csrfField(context)}<button type="submit" class="danger small">Delete<span class="visually-hidden"> comment</span></button></form>`;
}

export async function snippetComments(context: PageContext, snippet: SnippetRow, path: string, rules: CommentRules): Promise<Html> {
  const { deps } = context;
  const rows = await deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Snippet').where('noteable_id', '=', Number(snippet.id)).orderBy('created_at').orderBy('id').limit(500).execute();
  const users = await usersById(deps.db, noteUserIds(rows));
  const items: Html[] = [];
  for (const row of rows) {
    const author = users.get(Number(row.author_id));
    const body = await renderGitlabMarkdown(deps, row.body, rules.project ? { project: rules.project } : {});
    const controls = rules.canChange?.(row) ? changeControls(context, path, row) : '';
    items.push(html`<li class="note" id="note_${Number(row.id)}"><p class="muted">${author ? html`<a href="/${author.username}">${author.name}</a>` : 'Someone'} · ${isoTime(row.created_at)?.slice(0, 10)}</p><div class="markdown">${raw(body)}</div>${controls}</li>`);
  }
  const form = rules.canComment
    ? html`<form method="post" action="${path}/notes" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p><button type="submit">Comment</button></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(path)}">Sign in</a> to comment.</p>`;
  return html`<section class="snippet-comments" aria-labelledby="snippet-comments">
<h2 id="snippet-comments">Comments</h2>
${items.length ? html`<ul class="notes">${items}</ul>` : html`<p class="muted">No comments yet.</p>`}
${form}
</section>`;
}

/** The comment form's text. */
export function commentText(context: PageContext): string {
  return typeof context.form.note === 'string' ? context.form.note : '';
}

/** The comment form's post on a project snippet: a note on the snippet, back to the page at the new comment. */
export async function postSnippetComment(context: PageContext, access: ProjectAccess, snippet: SnippetRow, path: string): Promise<PageOutcome> {
  if (!projectCommentRules(context, access).canComment) throw new ForbiddenError();
  const note = await createNote(context.deps, context.user.id, { type: 'Snippet', id: Number(snippet.id), projectId: Number(access.project.id), iid: 0 }, commentText(context));
  return redirect(`${path}#note_${Number(note.id)}`, 'Comment added.');
}
