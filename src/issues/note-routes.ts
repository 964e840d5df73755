// Comments on an issue (doc/api/notes.md; lib/api/notes.rb): whoever reads the issue reads its notes;
// whoever may comment comments; a comment's author (or a Maintainer, admin_note) edits and deletes it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError } from '../platform/errors.js';
import { canAdminNote, canCommentOnIssue, canOnProject } from '../platform/auth/policies/index.js';
import { noteEntity, usersById } from './entities.js';
import { findReadableIssue } from './finder.js';
import { findNote, issueNotesQuery } from './discussions-finder.js';
import { createIssueNote } from './create-note.js';
import { updateNote } from './update-note.js';
import { destroyNote } from './destroy-note.js';
import { refuseUnsupported, timeOf } from './issue-params.js';

const TAGS = ['notes'];
const base = '/projects/:id/issues/:issue_iid/notes';

export function noteRoutes(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: 'List comments on an issue', tags: TAGS, paginated: true,
    ability: { project: 'read_note' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required(), sort: p.string.optional({ values: ['asc', 'desc'] }), order_by: p.string.optional({ values: ['created_at', 'updated_at'] }) },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const direction = (params.sort as 'asc' | 'desc') ?? 'desc';
      const rows = await paginate(issueNotesQuery(deps, Number(issue.id), params.order_by === 'updated_at' ? 'updated_at' : 'created_at', direction));
      const users = await usersById(deps.db, rows.map((row) => row.author_id));
      return rows.map((row) => noteEntity(baseUrl, row, users, issue.iid));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:note_id`, summary: 'One comment on an issue', tags: TAGS,
    ability: { project: 'read_note' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required(), note_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await findNote(deps.db, Number(issue.id), params.note_id);
      return noteEntity(baseUrl, note, await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: 'Comment on an issue', tags: TAGS,
    ability: { project: 'create_note' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), body: p.string.required(), created_at: p.string.optional(), internal: p.boolean.optional(), confidential: p.boolean.optional() },
    handler: async ({ params, input, actor, project }) => {
      // Internal notes (Reporters and above only) are not in Kiln: refused rather than shown to everyone.
      if (params.internal) refuseUnsupported({ internal: true }, ['internal']);
      if (params.confidential) refuseUnsupported({ confidential: true }, ['confidential']);
      refuseUnsupported(input, ['merge_request_diff_head_sha']);
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      if (!canCommentOnIssue(access, issue)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = await createIssueNote(deps, actor.user.id, issue, params.body, { createdAt });
      return noteEntity(baseUrl, note, await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:note_id`, summary: 'Change a comment (its author, or Maintainers)', tags: TAGS,
    ability: { project: 'read_note' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), note_id: p.integer.required(), body: p.string.required(), confidential: p.boolean.optional() },
    handler: async ({ params, project }) => {
      if (params.confidential) refuseUnsupported({ confidential: true }, ['confidential']);
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await findNote(deps.db, Number(issue.id), params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      const updated = await updateNote(deps, note, params.body);
      return noteEntity(baseUrl, updated, await usersById(deps.db, [updated.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:note_id`, summary: 'Delete a comment (its author, or Maintainers)', tags: TAGS,
    ability: { project: 'read_note' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), note_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await findNote(deps.db, Number(issue.id), params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      await destroyNote(deps, note);
      return undefined;
    },
  });
}
