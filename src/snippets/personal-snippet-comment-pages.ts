// Comments on a personal snippet's page (GitLab's Snippets::NotesController: there is no notes API for
// them). Whoever reads the snippet and is signed in comments; a comment is edited and deleted by its
// author, the snippet's author or an administrator (GitLab's admin_note on a personal snippet's note).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { pageRoute, type PageContext } from '../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../platform/web/page.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { destroyNote, updateNote, type NoteRow } from '../issues/api.js';
import { findPersonalSnippet, type SnippetRow } from './finder.js';
import { canReadSnippet } from './snippet-policy.js';
import { commentText, type CommentRules } from './snippet-comments.js';
import { commentOnPersonalSnippet } from './comment-on-personal-snippet.js';

export function personalCommentRules(context: PageContext, snippet: SnippetRow): CommentRules {
  const user = context.user ?? null;
  const canComment = user !== null && user.state === 'active' && canReadSnippet(user, snippet, null);
  const canChange = (note: NoteRow) => user !== null && canComment && (user.admin || Number(note.author_id) === user.id || Number(snippet.author_id) === user.id);
  return { canComment, canChange, project: null };
}

async function readableSnippet(context: PageContext): Promise<SnippetRow> {
  const id = Number(context.params.id);
  if (!Number.isSafeInteger(id)) throw new NotFoundError();
  const snippet = await findPersonalSnippet(context.deps.db, id);
  if (!canReadSnippet(context.user ?? null, snippet, null)) throw new NotFoundError();
  return snippet;
}

async function changeableNote(context: PageContext, snippet: SnippetRow): Promise<NoteRow> {
  const noteId = Number(context.params.note_id);
  const note = Number.isSafeInteger(noteId)
    ? await context.deps.db.selectFrom('notes').selectAll().where('id', '=', noteId).where('noteable_type', '=', 'Snippet').where('noteable_id', '=', Number(snippet.id)).executeTakeFirst()
    : undefined;
  if (!note) throw new NotFoundError();
  if (!personalCommentRules(context, snippet).canChange!(note)) throw new ForbiddenError();
  return note;
}

const pathOf = (snippet: SnippetRow) => `/-/snippets/${Number(snippet.id)}`;

async function post(context: PageContext): Promise<PageOutcome> {
  const snippet = await readableSnippet(context);
  if (!personalCommentRules(context, snippet).canComment) throw new ForbiddenError();
  const note = await commentOnPersonalSnippet(context.deps, context.user.id, snippet, commentText(context));
  return redirect(`${pathOf(snippet)}#note_${Number(note.id)}`, 'Comment added.');
}

async function edit(context: PageContext): Promise<PageOutcome> {
  const snippet = await readableSnippet(context);
  const note = await updateNote(context.deps, await changeableNote(context, snippet), commentText(context));
  return redirect(`${pathOf(snippet)}#note_${Number(note.id)}`, 'The comment was saved.');
}

async function remove(context: PageContext): Promise<PageOutcome> {
  const snippet = await readableSnippet(context);
  await destroyNote(context.deps, await changeableNote(context, snippet));
  return redirect(`${pathOf(snippet)}#snippet-comments`, 'The comment was deleted.');
}

export function personalSnippetCommentPages(app: FastifyInstance, deps: Deps): void {
  const signedIn = { instance: 'log_in' } as const;
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets/:id/notes', ability: signedIn, handler: post });
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets/:id/notes/:note_id', ability: signedIn, handler: edit });
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets/:id/notes/:note_id/delete', ability: signedIn, handler: remove });
}
