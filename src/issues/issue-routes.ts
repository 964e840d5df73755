// One issue (doc/api/issues.md; lib/api/issues.rb): read, create, change, close or reopen, delete.
// Confidential issues are read only by those issue-policy.ts allows (Reporters and above, the author,
// assignees): 404 for everyone else. Anonymous callers read the issues of public projects.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError, RecordNotFoundError } from '../platform/errors.js';
import { canOnProject, canReopenIssue, canUpdateIssue } from '../platform/auth/policies/index.js';
import { findReadableIssue } from './finder.js';
import { visibleParticipants } from './participants.js';
import { presentIssue, presentReadableIssue } from './present-issues.js';
import { createIssue } from './create-issue.js';
import { updateIssue } from './update-issue.js';
import { destroyIssue } from './destroy-issue.js';
import { requestDetail, userAgentDetail } from '../platform/http/user-agent-detail.js';
import { confidentialOf, issueParams, metadataOf, PAID_ISSUE_PARAMS, refuseUnsupported, timeOf } from './issue-params.js';

const TAGS = ['issues'];

/** GitLab's at_least_one_of for PUT /projects/:id/issues/:issue_iid. */
const UPDATE_FIELDS = ['assignee_id', 'assignee_ids', 'confidential', 'created_at', 'description', 'discussion_locked', 'due_date', 'labels', 'add_labels', 'remove_labels', 'milestone_id', 'state_event', 'title', 'issue_type'];

export function issueRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid', summary: 'One issue by its iid', tags: TAGS,
    ability: { project: 'read_issue' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project, principal }) => {
      return presentReadableIssue(deps, await project(), params.issue_iid, { viewer: principal?.user ?? null });
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/issues', summary: 'Create an issue or incident', tags: TAGS,
    ability: { project: 'create_issue' },
    params: {
      id: p.string.required(),
      title: p.string.required(),
      ...issueParams,
      created_at: p.string.optional(),
      iid: p.integer.optional(),
      merge_request_to_resolve_discussions_of: p.integer.optional(),
      discussion_to_resolve: p.string.optional(),
    },
    handler: async ({ params, input, actor, project, request }) => {
      // Kiln has no merge requests: a discussion of one to resolve cannot exist.
      refuseUnsupported(input, [...PAID_ISSUE_PARAMS, 'merge_request_to_resolve_discussions_of', 'discussion_to_resolve']);
      const access = await project();
      const createdAt = canOnProject(access, 'set_issue_created_at') ? timeOf('created_at', params.created_at) : undefined;
      const issue = await createIssue(deps, {
        projectId: Number(access.project.id),
        project: access.project,
        authorId: actor.user.id,
        title: params.title,
        description: params.description,
        issueType: params.issue_type as 'issue',
        confidential: confidentialOf(access, params.confidential, false),
        metadata: await metadataOf(deps, access, input, params, null),
        createdAt,
        iid: canOnProject(access, 'set_issue_iid') ? params.iid : undefined,
        request: requestDetail(request),
      });
      return presentIssue(deps, issue, access.project, { viewer: actor.user });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid/participants', summary: 'Who takes part in an issue: its author, assignees, commenters and the users mentioned', tags: TAGS,
    ability: { project: 'read_issue' }, auth: 'optional',
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const assignees = await deps.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', Number(issue.id)).orderBy('user_id').execute();
      return visibleParticipants(deps, access, { type: 'Issue', id: Number(issue.id), authorId: Number(issue.author_id), leadIds: assignees.map((row) => Number(row.user_id)), title: issue.title, description: issue.description });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid/user_agent_detail', summary: 'The user agent and address that created an issue (administrators)', tags: TAGS,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project, actor }) => {
      if (!actor.user.admin) throw new ForbiddenError();
      const issue = await findReadableIssue(deps, await project(), params.issue_iid);
      // GitLab keeps no detail for an issue made without a request (an alert's incident).
      if (issue.user_agent === null && issue.ip_address === null) throw new NotFoundError('UserAgentDetail');
      return userAgentDetail(issue);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/issues/:issue_iid', summary: 'Change, close or reopen an issue', tags: TAGS,
    // update_issue is decided on the issue itself (its author may change it): see the handler.
    ability: { project: 'read_issue' },
    params: {
      id: p.string.required(),
      issue_iid: p.integer.required(),
      title: p.string.optional(),
      ...issueParams,
      add_labels: p.strings.optional(),
      remove_labels: p.strings.optional(),
      state_event: p.string.optional({ values: ['close', 'reopen'] }),
      updated_at: p.string.optional(),
    },
    handler: async ({ params, input, actor, project }) => {
      requireOneOf(input, UPDATE_FIELDS);
      // GitLab names created_at among the fields of an update but never applies it: refused here.
      refuseUnsupported(input, [...PAID_ISSUE_PARAMS, 'created_at']);
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      if (!canUpdateIssue(access, issue)) throw new ForbiddenError();
      const updatedAt = canOnProject(access, 'set_issue_updated_at') ? timeOf('updated_at', params.updated_at) : undefined;
      const updated = await updateIssue(deps, actor.user.id, issue, {
        title: params.title,
        description: params.description,
        issueType: params.issue_type as 'issue',
        confidential: confidentialOf(access, params.confidential, true),
        // A locked issue stays closed, as GitLab's ReopenService leaves it (no reopen_issue).
        stateEvent: params.state_event === 'reopen' && !canReopenIssue(access, issue) ? undefined : (params.state_event as 'close'),
        metadata: await metadataOf(deps, access, input, params, issue),
        project: access.project,
        updatedAt,
      });
      return presentIssue(deps, updated, access.project, { viewer: actor.user });
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/issues/:issue_iid', summary: 'Delete an issue (Owners and administrators)', tags: TAGS,
    ability: { project: 'destroy_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      try {
        await destroyIssue(deps, await findReadableIssue(deps, access, params.issue_iid));
      } catch (error) {
        // GitLab's DELETE names what is missing: `404 Issue Not Found`.
        if (error instanceof RecordNotFoundError) throw new NotFoundError('Issue');
        throw error;
      }
      return undefined;
    },
  });
}
