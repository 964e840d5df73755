// Discussions of a noteable (doc/api/discussions.md; lib/api/discussions.rb), one implementation for
// every kind (noteable-kind.ts): every comment belongs to one, either its own (an individual note) or
// a thread. Threads are started with POST …/discussions and answered with POST
// …/discussions/:discussion_id/notes; a reply to an individual note makes it a thread. Kinds with
// resolvable threads (merge requests) also resolve a thread or one note. The API needs a signed-in
// caller, as GitLab's does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, rejectTogether } from '../platform/http/params.js';
import { BadRequestError, ForbiddenError, ParamError, RecordNotFoundError } from '../platform/errors.js';
import { canAdminNote, canOnProject } from '../platform/auth/policies/index.js';
import { discussionIdsQuery, discussionsOf, findDiscussion, findNote, findVisibleDiscussion, visibleDiscussions } from './discussions-finder.js';
import { createNote } from './create-note.js';
import { replyToDiscussion } from './reply-to-discussion.js';
import { updateNote } from './update-note.js';
import { destroyNote } from './destroy-note.js';
import { refuseUnsupported, timeOf } from './issue-params.js';
import { noteableIid, withNoteableIds } from './note-routes.js';
import type { NoteableKind } from './noteable-kind.js';
import type { Noteable } from './noteable.js';

const TAGS = ['discussions'];

export function discussionRoutes<T extends Noteable, K extends number | string = number>(app: FastifyInstance, deps: Deps, kind: NoteableKind<T, K>): void {
  const base = `/projects/:id/${kind.resource}/:${kind.iidParam}/discussions`;
  const ids = withNoteableIds(kind, { discussion_id: p.string.required() });
  const noteIds = withNoteableIds(kind, { discussion_id: p.string.required(), note_id: p.integer.required() });

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: `The discussions of ${kind.name}, each with its notes`, tags: TAGS, paginated: true,
    ability: { project: kind.abilities.read },
    params: withNoteableIds(kind, {}),
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      const page = await paginate(discussionIdsQuery(deps, noteable));
      const discussions = await visibleDiscussions(deps, access, await discussionsOf(deps.db, noteable, page.map((row) => row.discussion_id!).filter(Boolean)));
      const presenter = await kind.present(deps, noteable, discussions.flatMap((discussion) => discussion.notes));
      return discussions.map((discussion) => presenter.discussion(discussion.id, discussion.notes));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id`, summary: `One discussion of ${kind.name}`, tags: TAGS,
    ability: { project: kind.abilities.read },
    params: ids,
    handler: async ({ params, project }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      const notes = await findVisibleDiscussion(deps, access, noteable, params.discussion_id);
      return (await kind.present(deps, noteable, notes)).discussion(params.discussion_id, notes);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: `Start a thread on ${kind.name}`, tags: TAGS,
    ability: { project: kind.abilities.create },
    params: withNoteableIds(kind, { body: p.string.required(), created_at: p.string.optional(), ...(kind.thread?.params ?? {}) }),
    handler: async ({ params, input, actor, project }) => {
      refuseUnsupported(input, kind.unsupported.thread);
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      if (!kind.canComment(access, noteable)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = kind.thread
        ? await kind.thread.start(deps, actor.user, noteable, params.body, input, createdAt)
        : await createNote(deps, actor.user.id, noteable, params.body, { thread: true, createdAt });
      return (await kind.present(deps, noteable, [note])).discussion(note.discussion_id!, [note]);
    },
  });

  if (kind.resolve) {
    const resolve = kind.resolve;
    apiRoute(app, deps, {
      method: 'PUT', url: `${base}/:discussion_id`, summary: `Resolve or unresolve a thread of ${kind.name}`, tags: TAGS,
      ability: { project: kind.abilities.read },
      params: { ...ids, resolved: p.boolean.required() },
      handler: async ({ params, actor, project }) => {
        const access = await project();
        const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
        const notes = await findDiscussion(deps.db, noteable, params.discussion_id);
        const after = await resolve.discussion(deps, actor.user, access, noteable, notes, params.resolved);
        return (await kind.present(deps, noteable, after)).discussion(params.discussion_id, after);
      },
    });
  }

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id/notes`, summary: "A discussion's notes", tags: TAGS,
    ability: { project: kind.abilities.read },
    params: ids,
    handler: async ({ params, project }) => {
      const noteable = await kind.find(deps, await project(), noteableIid<K>(kind, params));
      const notes = await findDiscussion(deps.db, noteable, params.discussion_id);
      const presenter = await kind.present(deps, noteable, notes);
      return notes.map((note) => presenter.note(note));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/:discussion_id/notes`, summary: 'Reply in a discussion', tags: TAGS,
    ability: { project: kind.abilities.create },
    params: { ...ids, body: p.string.required(), created_at: p.string.optional() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      if (!kind.canComment(access, noteable)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = await replyToDiscussion(deps, actor.user.id, noteable, params.discussion_id, params.body, createdAt);
      return (await kind.present(deps, noteable, [note])).note(note);
    },
  });

  /** A note of the discussion (docs/architecture.md: a child through its parent), `404 Not found` otherwise. */
  const noteOf = async (noteable: T, discussionId: string, noteId: number) => {
    const note = await findNote(deps.db, noteable, noteId);
    if (note.discussion_id !== discussionId) throw new RecordNotFoundError();
    return note;
  };

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id/notes/:note_id`, summary: 'One note of a discussion', tags: TAGS,
    ability: { project: kind.abilities.read },
    params: noteIds,
    handler: async ({ params, project }) => {
      const noteable = await kind.find(deps, await project(), noteableIid<K>(kind, params));
      const note = await noteOf(noteable, params.discussion_id, params.note_id);
      return (await kind.present(deps, noteable, [note])).note(note);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:discussion_id/notes/:note_id`, summary: 'Change a note of a discussion, or resolve it', tags: TAGS,
    ability: { project: kind.abilities.read },
    params: { ...noteIds, body: p.string.optional(), resolved: p.boolean.optional() },
    handler: async ({ params, input, actor, project }) => {
      rejectTogether(input, ['body', 'resolved']);
      if (params.body === undefined && params.resolved === undefined) throw new ParamError('body, resolved are missing, exactly one parameter must be provided');
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      const note = await noteOf(noteable, params.discussion_id, params.note_id);
      let updated;
      if (params.resolved !== undefined) {
        // GitLab's resolve_note: only resolvable kinds have resolvable notes (the check of the caller first).
        if (!kind.resolve) {
          if (!canAdminNote(access, note)) throw new ForbiddenError();
          throw new BadRequestError('Note is not resolvable');
        }
        updated = await kind.resolve.note(deps, actor.user, access, noteable, note, params.resolved);
      } else {
        if (!canAdminNote(access, note)) throw new ForbiddenError();
        updated = await updateNote(deps, note, params.body ?? '');
        await kind.noteUpdated?.(deps, noteable, updated);
      }
      return (await kind.present(deps, noteable, [updated])).note(updated);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:discussion_id/notes/:note_id`, summary: 'Delete a note of a discussion (its author, or Maintainers)', tags: TAGS,
    ability: { project: kind.abilities.read },
    params: noteIds,
    handler: async ({ params, project }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid<K>(kind, params));
      const note = await noteOf(noteable, params.discussion_id, params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      await destroyNote(deps, note);
      return undefined;
    },
  });
}
