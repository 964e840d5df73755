// One merge request (doc/api/merge_requests.md; lib/api/merge_requests.rb): read, open, change,
// close or reopen, delete. `:id` of POST is the source project (a fork opens into its upstream with
// `target_project_id`); every other route names the target project, whose iid the merge request has.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError, ParamError, StatusError } from '../platform/errors.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { findMergeRequest, fullProject } from './finder.js';
import { presentMergeRequest } from './present-one.js';
import { createMergeRequest } from './create-merge-request.js';
import { updateMergeRequest } from './update-merge-request.js';
import { destroyMergeRequest } from './destroy-merge-request.js';
import { mergeRequestParams, metadataOf } from './mr-params.js';
import { inSameForkNetwork } from '../accounts/api.js';

const TAGS = ['merge_requests'];

/** GitLab's at_least_one_of for PUT /projects/:id/merge_requests/:merge_request_iid. */
const UPDATE_FIELDS = ['assignee_id', 'assignee_ids', 'reviewer_ids', 'description', 'labels', 'add_labels', 'remove_labels', 'milestone_id', 'remove_source_branch', 'allow_collaboration', 'allow_maintainer_to_push', 'squash', 'target_branch', 'title', 'state_event', 'discussion_locked'];

/** Merge request parameters of paid tiers that Kiln cannot store: refused with a 400 naming them. */
const PAID_PARAMS = ['approvals_before_merge'];

function refusePaid(input: Record<string, unknown>): void {
  const sent = PAID_PARAMS.filter((name) => input[name] !== undefined && input[name] !== null);
  if (sent.length) throw new ParamError(sent.map((name) => `${name} is not supported`).join(', '));
}

/** The project row with all its settings, read again rather than taken from the route's look-up. */
async function settingsOf(deps: Deps, access: ProjectAccess) {
  const project = await fullProject(deps.db, Number(access.project.id));
  if (!project) throw new NotFoundError('Project');
  return project;
}

export const iidParam = { id: p.string.required(), merge_request_iid: p.integer.required() };

export function mergeRequestRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid', summary: 'One merge request by its iid', tags: TAGS,
    ability: { project: 'read_merge_request' }, auth: 'optional',
    params: { ...iidParam, render_html: p.boolean.optional(), include_diverged_commits_count: p.boolean.optional(), include_rebase_in_progress: p.boolean.optional() },
    handler: async ({ params, project, principal }) => {
      const access = await project();
      const mr = await findMergeRequest(deps.db, Number(access.project.id), params.merge_request_iid);
      return presentMergeRequest(deps, mr, {
        viewer: principal?.user ?? null,
        from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) },
        includeDivergedCommitsCount: params.include_diverged_commits_count,
        includeRebaseInProgress: params.include_rebase_in_progress,
      });
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests', summary: 'Open a merge request', tags: TAGS,
    ability: { project: 'create_merge_request_from' },
    params: {
      id: p.string.required(),
      title: p.string.required(),
      source_branch: p.string.required({ max: 255 }),
      target_branch: p.string.required({ max: 255 }),
      target_project_id: p.integer.optional(),
      ...mergeRequestParams,
    },
    handler: async ({ params, input, actor, project }) => {
      refusePaid(input);
      const sourceAccess = await project();
      const source = await settingsOf(deps, sourceAccess);
      const targetId = params.target_project_id ?? Number(source.id);
      let target = source;
      let targetAccess = sourceAccess;
      if (targetId !== Number(source.id)) {
        // Another target is a project of the source's fork network (GitLab's validate_fork). The
        // author needs Developer in the source only: in the target, reading its merge requests.
        const readable = await deps.auth.subjects!.project(actor, targetId, 'read_project').catch(() => null);
        if (!readable) throw new NotFoundError('Project');
        if (!(await inSameForkNetwork(deps.db, Number(source.id), targetId))) throw new StatusError(422, ['Source project is not a fork of the target project']);
        if (!canOnProject(readable, 'read_merge_request')) throw new ForbiddenError();
        targetAccess = readable;
        target = await settingsOf(deps, readable);
      } else if (!canOnProject(targetAccess, 'create_merge_request_in')) throw new ForbiddenError();
      const mr = await createMergeRequest(deps, {
        source,
        target,
        authorId: actor.user.id,
        title: params.title.trim(),
        description: params.description,
        sourceBranch: params.source_branch,
        targetBranch: params.target_branch,
        metadata: await metadataOf(deps, targetAccess, input, params),
        removeSourceBranch: params.remove_source_branch,
        allowCollaboration: params.allow_collaboration ?? params.allow_maintainer_to_push,
        squash: params.squash,
      });
      return presentMergeRequest(deps, mr, { viewer: actor.user, from: { projectId: Number(source.id), namespaceId: Number(source.namespace_id) } });
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/merge_requests/:merge_request_iid', summary: 'Change, close or reopen a merge request', tags: TAGS,
    ability: { project: 'update_merge_request' },
    params: {
      ...iidParam,
      title: p.string.optional({ allowBlank: false }),
      target_branch: p.string.optional({ allowBlank: false, max: 255 }),
      state_event: p.string.optional({ values: ['close', 'reopen'] }),
      discussion_locked: p.boolean.optional(),
      ...mergeRequestParams,
    },
    handler: async ({ params, input, actor, project }) => {
      requireOneOf(input, UPDATE_FIELDS);
      refusePaid(input);
      const access = await project();
      const target = await settingsOf(deps, access);
      const mr = await findMergeRequest(deps.db, Number(target.id), params.merge_request_iid);
      const updated = await updateMergeRequest(deps, actor.user.id, mr, target, {
        title: params.title?.trim(),
        description: params.description,
        targetBranch: params.target_branch,
        stateEvent: params.state_event as 'close' | 'reopen' | undefined,
        discussionLocked: params.discussion_locked,
        metadata: await metadataOf(deps, access, input, params),
        removeSourceBranch: params.remove_source_branch,
        allowCollaboration: params.allow_collaboration ?? params.allow_maintainer_to_push,
        squash: params.squash,
      });
      return presentMergeRequest(deps, updated, { viewer: actor.user, from: { projectId: Number(target.id), namespaceId: Number(target.namespace_id) } });
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/merge_requests/:merge_request_iid', summary: 'Delete a merge request (Owners and administrators)', tags: TAGS,
    ability: { project: 'destroy_merge_request' },
    params: iidParam,
    handler: async ({ params, project }) => {
      const access = await project();
      const mr = await findMergeRequest(deps.db, Number(access.project.id), params.merge_request_iid);
      await destroyMergeRequest(deps, mr, access.project);
      return undefined;
    },
  });
}
