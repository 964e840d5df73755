// Discussions of an issue (doc/api/discussions.md; lib/api/discussions.rb): every comment belongs to
// one, either its own (an individual note) or a thread. Threads are started with POST …/discussions
// and answered with POST …/discussions/:discussion_id/notes; a reply to an individual note makes it a
// thread. The API needs a signed-in caller, as GitLab's does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, rejectTogether } from '../platform/http/params.js';
import { BadRequestError, ForbiddenError, ParamError, RecordNotFoundError } from '../platform/errors.js';
import { canAdminNote, canCommentOnIssue, canOnProject } from '../platform/auth/policies/index.js';
import { discussionEntity, noteEntity, usersById } from './entities.js';
import { findReadableIssue } from './finder.js';
import { discussionIdsQuery, discussionsOf, findDiscussion, findNote } from './discussions-finder.js';
import { createIssueNote } from './create-note.js';
import { replyToDiscussion } from './reply-to-discussion.js';
import { updateNote } from './update-note.js';
import { destroyNote } from './destroy-note.js';
import { refuseUnsupported, timeOf } from './issue-params.js';

const TAGS = ['discussions'];
const base = '/projects/:id/issues/:issue_iid/discussions';
const ids = { id: p.string.required(), issue_iid: p.integer.required() };
const noteIds = { ...ids, discussion_id: p.string.required(), note_id: p.integer.required() };

export function discussionRoutes(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: "An issue's discussions, each with its notes", tags: TAGS, paginated: true,
    ability: { project: 'read_note' },
    params: ids,
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const page = await paginate(discussionIdsQuery(deps, Number(issue.id)));
      const discussions = await discussionsOf(deps.db, Number(issue.id), page.map((row) => row.discussion_id!).filter(Boolean));
      const users = await usersById(deps.db, discussions.flatMap((discussion) => discussion.notes.map((note) => note.author_id)));
      return discussions.map((discussion) => discussionEntity(baseUrl, discussion.id, discussion.notes, users, issue.iid));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id`, summary: 'One discussion of an issue', tags: TAGS,
    ability: { project: 'read_note' },
    params: { ...ids, discussion_id: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const notes = await findDiscussion(deps.db, Number(issue.id), params.discussion_id);
      return discussionEntity(baseUrl, params.discussion_id, notes, await usersById(deps.db, notes.map((note) => note.author_id)), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: 'Start a thread on an issue', tags: TAGS,
    ability: { project: 'create_note' },
    params: { ...ids, body: p.string.required(), created_at: p.string.optional() },
    handler: async ({ params, input, actor, project }) => {
      refuseUnsupported(input, ['position']);
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      if (!canCommentOnIssue(access, issue)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = await createIssueNote(deps, actor.user.id, issue, params.body, { thread: true, createdAt });
      return discussionEntity(baseUrl, note.discussion_id!, [note], await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id/notes`, summary: "A discussion's notes", tags: TAGS,
    ability: { project: 'read_note' },
    params: { ...ids, discussion_id: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const notes = await findDiscussion(deps.db, Number(issue.id), params.discussion_id);
      const users = await usersById(deps.db, notes.map((note) => note.author_id));
      return notes.map((note) => noteEntity(baseUrl, note, users, issue.iid));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/:discussion_id/notes`, summary: 'Reply in a discussion', tags: TAGS,
    ability: { project: 'create_note' },
    params: { ...ids, discussion_id: p.string.required(), body: p.string.required(), created_at: p.string.optional() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      if (!canCommentOnIssue(access, issue)) throw new ForbiddenError();
      const createdAt = canOnProject(access, 'set_note_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const note = await replyToDiscussion(deps, actor.user.id, issue, params.discussion_id, params.body, createdAt);
      return noteEntity(baseUrl, note, await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });

  /** A note of the discussion (docs/architecture.md: a child through its parent), `404 Not found` otherwise. */
  const noteOf = async (issueId: number, discussionId: string, noteId: number) => {
    const note = await findNote(deps.db, issueId, noteId);
    if (note.discussion_id !== discussionId) throw new RecordNotFoundError();
    return note;
  };

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:discussion_id/notes/:note_id`, summary: 'One note of a discussion', tags: TAGS,
    ability: { project: 'read_note' },
    params: noteIds,
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await noteOf(Number(issue.id), params.discussion_id, params.note_id);
      return noteEntity(baseUrl, note, await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:discussion_id/notes/:note_id`, summary: 'Change a note of a discussion (its author, or Maintainers)', tags: TAGS,
    ability: { project: 'read_note' },
    params: { ...noteIds, body: p.string.optional(), resolved: p.boolean.optional() },
    handler: async ({ params, input, project }) => {
      rejectTogether(input, ['body', 'resolved']);
      if (params.body === undefined && params.resolved === undefined) throw new ParamError('body, resolved are missing, exactly one parameter must be provided');
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await noteOf(Number(issue.id), params.discussion_id, params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      // Only merge request threads are resolvable in GitLab; Kiln has none.
      if (params.resolved !== undefined) throw new BadRequestError('Note is not resolvable');
      const updated = await updateNote(deps, note, params.body ?? '');
      return noteEntity(baseUrl, updated, await usersById(deps.db, [updated.author_id]), issue.iid);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:discussion_id/notes/:note_id`, summary: 'Delete a note of a discussion (its author, or Maintainers)', tags: TAGS,
    ability: { project: 'read_note' },
    params: noteIds,
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await noteOf(Number(issue.id), params.discussion_id, params.note_id);
      if (!canAdminNote(access, note)) throw new ForbiddenError();
      await destroyNote(deps, note);
      return undefined;
    },
  });
}
