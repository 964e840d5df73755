// Comments on a project snippet's page: its notes (the notes API's rows, snippet-noteable.ts), oldest
// first, each rendered as Markdown, and a comment form for whoever may comment; the form posts to
// `<snippet>/notes` with the session's CSRF token.
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, raw, type Html } from '../platform/web/html.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { isoTime } from '../platform/clock.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { createNote, noteUserIds, usersById } from '../issues/api.js';
import { redirect, type PageOutcome } from '../platform/web/page.js';
import { ForbiddenError } from '../platform/errors.js';
import type { SnippetRow } from './finder.js';

export function mayCommentOnSnippet(context: PageContext, access: ProjectAccess): boolean {
  return context.user !== undefined && context.user !== null && canOnProject(access, 'read_snippet') && canOnProject(access, 'create_note');
}

export async function snippetComments(context: PageContext, access: ProjectAccess, snippet: SnippetRow, path: string): Promise<Html> {
  const { deps } = context;
  const rows = await deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Snippet').where('noteable_id', '=', Number(snippet.id)).orderBy('created_at').orderBy('id').limit(500).execute();
  const users = await usersById(deps.db, noteUserIds(rows));
  const items: Html[] = [];
  for (const row of rows) {
    const author = users.get(Number(row.author_id));
    const body = await renderGitlabMarkdown(deps, row.body, { project: access });
    items.push(html`<li class="note" id="note_${Number(row.id)}"><p class="muted">${author ? html`<a href="/${author.username}">${author.name}</a>` : 'Someone'} · ${isoTime(row.created_at)?.slice(0, 10)}</p><div class="markdown">${raw(body)}</div></li>`);
  }
  const form = mayCommentOnSnippet(context, access)
    ? html`<form method="post" action="${path}/notes" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p><button type="submit">Comment</button></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(path)}">Sign in</a> to comment.</p>`;
  return html`<section class="snippet-comments" aria-labelledby="snippet-comments">
<h2 id="snippet-comments">Comments</h2>
${items.length ? html`<ul class="notes">${items}</ul>` : html`<p class="muted">No comments yet.</p>`}
${form}
</section>`;
}

/** The comment form's post: a note on the snippet, back to the page at the new comment. */
export async function postSnippetComment(context: PageContext, access: ProjectAccess, snippet: SnippetRow, path: string): Promise<PageOutcome> {
  if (!mayCommentOnSnippet(context, access)) throw new ForbiddenError();
  const text = typeof context.form.note === 'string' ? context.form.note : '';
  const note = await createNote(context.deps, context.user.id, { type: 'Snippet', id: Number(snippet.id), projectId: Number(access.project.id), iid: 0 }, text);
  return redirect(`${path}#note_${Number(note.id)}`, 'Comment added.');
}
