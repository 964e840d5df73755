// Comments on the commit page: its notes in order (threads with their replies), rendered as Markdown
// for the viewer, a line comment naming its file and line, and a form for those who may comment.
// The form posts to `/-/commit/:sha/comments`, which comments through the same service as the API.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { redirect } from '../../platform/web/page.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { usersById, type NoteRow } from '../../issues/api.js';
import { timeElement } from './time.js';
import { storedLine } from '../commit-comments/diff-line.js';
import { commentOnCommit, commitNoteableKind, findCommitNoteable, type CommitNoteable } from '../commit-comments/commit-noteable.js';

export const COMMIT_COMMENTS_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})\/comments$/;

/** A page shows at most this many comments of one commit: enough for any real review. */
const SHOWN = 500;

function lineOf(note: NoteRow): string | null {
  const line = storedLine(note);
  return line ? `${line.path}:${line.line}` : null;
}

export async function commitNotesSection(context: PageContext, access: ProjectAccess, noteable: CommitNoteable): Promise<Html> {
  const { deps } = context;
  const notes = noteable.id === 0 ? [] : await deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Commit').where('noteable_id', '=', noteable.id).orderBy('id').limit(SHOWN).execute();
  const [users, bodies] = await Promise.all([
    usersById(deps.db, notes.map((note) => note.author_id)),
    Promise.all(notes.map((note) => renderGitlabMarkdown(deps, note.body, { project: access }))),
  ]);
  const now = deps.clock.now();
  const base = `/${access.project.full_path}`;
  const mayComment = context.user !== null && commitNoteableKind.canComment(access, noteable);
  const items = notes.map((note, index) => {
    const author = users.get(Number(note.author_id));
    const line = lineOf(note);
    const reply = index > 0 && note.discussion_id === notes[index - 1].discussion_id;
    return html`<article class="note${reply ? ' reply' : ''}" id="note_${note.id}"><p class="meta">${author ? html`<a href="/${author.username}">${author.name}</a>` : html`<span class="muted">a deleted user</span>`} · ${timeElement(Math.floor(note.created_at / 1000), now)}${line ? html` · on <code>${line}</code>` : ''}</p><div class="markdown">${raw(bodies[index])}</div></article>`;
  });
  return html`<section aria-labelledby="commit-comments-heading" id="commit-comments">
<h2 id="commit-comments-heading">Comments</h2>
${items.length ? html`<div id="notes">${items}</div>` : html`<p class="muted">No comments yet.</p>`}
${
  mayComment
    ? html`<form method="post" action="${base}/-/commit/${noteable.sha}/comments" class="stacked" id="new-note">${csrfField(context)}<label for="note-body">Add a comment</label><textarea id="note-body" name="note" required></textarea><p class="muted">Markdown is supported.</p><button type="submit">Comment</button></form>`
    : context.user ? '' : html`<p><a href="/users/sign_in?return_to=${encodeURIComponent(`${base}/-/commit/${noteable.sha}`)}">Sign in</a> to comment.</p>`
}
</section>`;
}

export async function commentOnCommitFromForm(context: PageContext, access: ProjectAccess) {
  const noteable = await findCommitNoteable(context.deps, access, context.match.sha);
  const self = `/${access.project.full_path}/-/commit/${noteable.sha}`;
  if (!commitNoteableKind.canComment(access, noteable)) throw new ForbiddenError();
  const note = typeof context.form.note === 'string' ? context.form.note : '';
  try {
    const created = await commentOnCommit(context.deps, context.user, noteable, note);
    return redirect(`${self}#note_${created.id}`, 'Comment added.');
  } catch (error) {
    if (error instanceof ValidationError) return redirect(`${self}#new-note`, 'Comment can’t be blank.');
    throw error;
  }
}
