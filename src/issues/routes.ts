// Issues and notes of a project. Confidential issues are read only by those issue-policy.ts allows
// (Reporter and above, the author, assignees): filtered in SQL in lists, 404 everywhere else.
// Anonymous callers read the issues and notes of public projects, as in GitLab.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError } from '../platform/errors.js';
import { canUpdateIssue } from '../platform/auth/policies/index.js';
import { issueEntity, noteEntity, usersById } from './entities.js';
import { confidentialScope, findReadableIssue, notesCounts, projectIssuesQuery } from './finder.js';
import { createIssue } from './create-issue.js';
import { updateIssue } from './update-issue.js';
import { createIssueNote } from './create-note.js';

const ISSUE_TYPES = ['issue', 'incident'] as const;

export function issuesRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues', summary: 'List issues of a project', tags: ['issues'], paginated: true,
    ability: { project: 'read_issue' }, auth: 'optional',
    params: {
      id: p.string.required(),
      state: p.string.optional({ values: ['opened', 'closed', 'all'] }),
      issue_type: p.string.optional({ values: ISSUE_TYPES }),
      search: p.string.optional(),
      sort: p.string.optional({ values: ['asc', 'desc'] }),
    },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const filters = { state: params.state as 'opened', issueType: params.issue_type as 'issue', search: params.search, sort: params.sort as 'asc' };
      const rows = await paginate(projectIssuesQuery(deps, access.project.id, confidentialScope(access), filters));
      const [users, counts] = await Promise.all([usersById(deps.db, rows.flatMap((row) => [row.author_id, row.closed_by_id])), notesCounts(deps, rows.map((row) => row.id))]);
      return rows.map((row) => issueEntity(base, row, access.project, users, counts.get(row.id) ?? 0));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid', summary: 'One issue by its iid', tags: ['issues'],
    ability: { project: 'read_issue' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const [users, counts] = await Promise.all([usersById(deps.db, [issue.author_id, issue.closed_by_id]), notesCounts(deps, [issue.id])]);
      return issueEntity(base, issue, access.project, users, counts.get(issue.id) ?? 0);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/issues', summary: 'Create an issue or incident', tags: ['issues'],
    ability: { project: 'create_issue' },
    params: { id: p.string.required(), title: p.string.required(), description: p.string.optional(), issue_type: p.string.optional({ values: ISSUE_TYPES }), confidential: p.boolean.optional() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const issue = await createIssue(deps, { projectId: access.project.id, authorId: actor.user.id, title: params.title, description: params.description, issueType: params.issue_type as 'issue', confidential: params.confidential });
      return issueEntity(base, issue, access.project, await usersById(deps.db, [issue.author_id]));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/issues/:issue_iid', summary: 'Change, close or reopen an issue', tags: ['issues'],
    // update_issue is decided on the issue itself (its author may change it): see the handler.
    ability: { project: 'read_issue' },
    params: {
      id: p.string.required(),
      issue_iid: p.integer.required(),
      title: p.string.optional(),
      description: p.string.optional(),
      issue_type: p.string.optional({ values: ISSUE_TYPES }),
      confidential: p.boolean.optional(),
      state_event: p.string.optional({ values: ['close', 'reopen'] }),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      if (!canUpdateIssue(access, issue)) throw new ForbiddenError();
      const updated = await updateIssue(deps, actor.user.id, issue, {
        title: params.title, description: params.description, issueType: params.issue_type as 'issue', confidential: params.confidential, stateEvent: params.state_event as 'close',
      });
      const [users, counts] = await Promise.all([usersById(deps.db, [updated.author_id, updated.closed_by_id]), notesCounts(deps, [updated.id])]);
      return issueEntity(base, updated, access.project, users, counts.get(updated.id) ?? 0);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid/notes', summary: 'List comments on an issue', tags: ['notes'], paginated: true,
    ability: { project: 'read_note' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required(), sort: p.string.optional({ values: ['asc', 'desc'] }) },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const rows = await paginate(deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Issue').where('noteable_id', '=', issue.id).orderBy('id', (params.sort as 'asc' | 'desc') ?? 'desc'));
      const users = await usersById(deps.db, rows.map((row) => row.author_id));
      return rows.map((row) => noteEntity(base, row, users, issue.iid));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/issues/:issue_iid/notes', summary: 'Comment on an issue', tags: ['notes'],
    ability: { project: 'create_note' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), body: p.string.required() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const note = await createIssueNote(deps, actor.user.id, issue, params.body);
      return noteEntity(base, note, await usersById(deps.db, [note.author_id]), issue.iid);
    },
  });
}
