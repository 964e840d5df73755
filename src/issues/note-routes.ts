// Comments on a noteable (doc/api/notes.md; lib/api/notes.rb), one implementation for every kind
// (noteable-kind.ts): whoever reads the noteable reads its notes; whoever may comment comments; a
// comment's author (or a Maintainer, admin_note) edits and deletes it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, type ParamSchema } from '../platform/http/params.js';
import { ForbiddenError } from '../platform/errors.js';
import { canAdminNote, canOnProject } from '../platform/auth/policies/index.js';
import { findNote, findVisibleNote, notesQuery } from './discussions-finder.js';
import { visibleNotes } from './cross-reference-visibility.js';
import { createNote } from './create-note.js';
import { updateNote } from './update-note.js';
import { destroyNote } from './destroy-note.js';
import { refuseUnsupported, timeOf } from './issue-params.js';
import type { NoteableKind } from './noteable-kind.js';
import type { Noteable } from './noteable.js';

const TAGS = ['notes'];

/** The path's ids with the kind's iid parameter (`issue_iid`, `merge_request_iid`). */
export function withNoteableIds<S extends ParamSchema>(kind: { iidParam: string; keyType?: 'string' }, schema: S): S {
  return { id: p.string.required(), [kind.iidParam]: kind.keyType === 'string' ? p.string.required() : p.integer.required(), ...schema };
}

export function noteableIid<K extends number | string = number>(kind: { iidParam: string }, params: object): K {
  return (params as Record<string, K>)[kind.iidParam];
}

export function noteRoutes<T extends Noteable>(app: FastifyInstance, deps: Deps, kind: NoteableKind<T>): void {
  const base = `/projects/:id/${kind.resource}/:${kind.iidParam}/notes`;

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: `List comments on ${kind.name}`, tags: TAGS, paginated: true,
    ability: { project: kind.abilities.read }, auth: 'optional',
    params: withNoteableIds(kind, { sort: p.string.optional({ values: ['asc', 'desc'] }), order_by: p.string.optional({ values: ['created_at', 'updated_at'] }) }),
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      const direction = (params.sort as 'asc' | 'desc') ?? 'desc';
      // A page may hold fewer notes than asked: those whose source the reader cannot see are left out, as GitLab does.
      const rows = await visibleNotes(deps, access.user, await paginate(notesQuery(deps, noteable, params.order_by === 'updated_at' ? 'updated_at' : 'created_at', direction)), access);
      const presenter = await kind.present(deps, noteable, rows);
      return rows.map((row) => presenter.note(row));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:note_id`, summary: `One comment on ${kind.name}`, tags: TAGS,
    ability: { project: kind.abilities.read }, auth: 'optional',
    params: withNoteableIds(kind, { note_id: p.integer.required() }),
    handler: async ({ params, project }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      const note = await findVisibleNote(deps, access, noteable, params.note_id);
      return (await kind.present(deps, noteable, [note])).note(note);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: `Comment on ${kind.name}`, tags: TAGS,
    ability: { project: kind.abilities.create },
    params: withNoteableIds(kind, { body: p.string.required(), created_at: p.string.optional(), internal: p.boolean.optional(), confidential: p.boolean.optional() }),
    handler: async ({ params, input, actor, project }) => {
      // Internal notes (Reporters and above only) are not in Kiln: refused rather than shown to everyone.
      if (params.internal) refuseUnsupported({ internal: true }, ['internal']);
      if (params.confidential) refuseUnsupported({ confidential: true }, ['confidential']);
      refuseUnsupported(input, kind.unsupported.note);
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      if (!kind.canComment(access, noteable)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = await createNote(deps, actor.user.id, noteable, params.body, { createdAt });
      return (await kind.present(deps, noteable, [note])).note(note);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:note_id`, summary: 'Change a comment (its author, or Maintainers)', tags: TAGS,
    ability: { project: kind.abilities.read },
    params: withNoteableIds(kind, { note_id: p.integer.required(), body: p.string.required(), confidential: p.boolean.optional() }),
    handler: async ({ params, project }) => {
      if (params.confidential) refuseUnsupported({ confidential: true }, ['confidential']);
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      const note = await findNote(deps.db, noteable, params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      const updated = await updateNote(deps, note, params.body);
      await kind.noteUpdated?.(deps, noteable, updated);
      return (await kind.present(deps, noteable, [updated])).note(updated);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:note_id`, summary: 'Delete a comment (its author, or Maintainers)', tags: TAGS,
    ability: { project: kind.abilities.read },
    params: withNoteableIds(kind, { note_id: p.integer.required() }),
    handler: async ({ params, project }) => {
      const access = await project();
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      const note = await findNote(deps.db, noteable, params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      await destroyNote(deps, note);
      return undefined;
    },
  });
}
