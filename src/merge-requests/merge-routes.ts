// Merging, rebasing and approving (doc/api/merge_requests.md, merge_request_approvals.md).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError, StatusError } from '../platform/errors.js';
import { unauthorized } from '../platform/http/api-error.js';
import { canMergeToBranch } from '../repositories/api.js';
import { findMergeRequest, findMergeRequestById, fullProject } from './finder.js';
import { cancelAutoMerge } from './arm-auto-merge.js';
import { presentMergeRequest } from './present-one.js';
import { iidParam } from './mr-routes.js';
import { mergeMergeRequest } from './merge-merge-request.js';
import { scheduleRebase } from './rebase-merge-request.js';
import { approvalsEntity, approvalStateEntity, approveMergeRequest, unapproveMergeRequest } from './approve-merge-request.js';
import { branchHead, readRepository } from './mr-repository.js';
import { mayWriteSourceBranch, sourceProjectOf } from './source-branch-access.js';

const TAGS = ['merge_requests'];

export function mergeRequestMergeRoutes(app: FastifyInstance, deps: Deps): void {
  const load = async (project: () => Promise<import('../platform/auth/subjects.js').ProjectAccess>, iid: number) => {
    const access = await project();
    const target = (await fullProject(deps.db, Number(access.project.id)))!;
    const mr = await findMergeRequest(deps.db, Number(target.id), iid);
    return { access, target, mr };
  };

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/merge_requests/:merge_request_iid/merge', summary: 'Merge a merge request', tags: TAGS,
    // Who may merge is the target branch's business (protected branches): decided in the action (401).
    ability: { project: 'read_merge_request' },
    params: {
      ...iidParam,
      merge_commit_message: p.string.optional({ max: 1_048_576 }),
      squash_commit_message: p.string.optional({ max: 1_048_576 }),
      squash: p.boolean.optional(),
      should_remove_source_branch: p.boolean.optional(),
      merge_when_pipeline_succeeds: p.boolean.optional(),
      auto_merge: p.boolean.optional(),
      sha: p.string.optional({ max: 64 }),
    },
    handler: async ({ params, actor, project }) => {
      const { target, mr } = await load(project, params.merge_request_iid);
      const merged = await mergeMergeRequest(deps, actor.user, mr, target, {
        mergeCommitMessage: params.merge_commit_message,
        squashCommitMessage: params.squash_commit_message,
        squash: params.squash,
        shouldRemoveSourceBranch: params.should_remove_source_branch,
        mergeWhenPipelineSucceeds: params.merge_when_pipeline_succeeds ?? params.auto_merge,
        sha: params.sha,
      });
      return presentMergeRequest(deps, merged, { viewer: actor.user, from: { projectId: Number(target.id), namespaceId: Number(target.namespace_id) } });
    },
  });

  // Cancelling an armed automatic merge answers the merge request (201, GitLab's POST); one that is
  // not armed answers GitLab's error hash. python-gitlab 3.x sends it as PUT, which GitLab routes
  // only as POST; both are served.
  for (const method of ['POST', 'PUT'] as const) {
    apiRoute(app, deps, {
      method, url: '/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', summary: 'Cancel an automatic merge', tags: TAGS,
      ability: { project: 'read_merge_request' }, status: 201,
      params: iidParam,
      handler: async ({ params, actor, project }) => {
        const { target, mr } = await load(project, params.merge_request_iid);
        const allowed = Number(mr.author_id) === actor.user.id || (await canMergeToBranch(deps, target, actor.user, mr.target_branch));
        if (!allowed) throw unauthorized();
        if (!(await cancelAutoMerge(deps, actor.user, mr))) return { status: 'error', message: "Can't cancel the automatic merge", http_status: 406 };
        const after = (await findMergeRequestById(deps.db, Number(mr.id)))!;
        return presentMergeRequest(deps, after, { viewer: actor.user, from: { projectId: Number(target.id), namespaceId: Number(target.namespace_id) } });
      },
    });
  }

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/merge_requests/:merge_request_iid/rebase', summary: 'Rebase the source branch onto the target on the server', tags: TAGS,
    ability: { project: 'read_merge_request' }, status: 202,
    params: { ...iidParam, skip_ci: p.boolean.optional() },
    handler: async ({ params, actor, project }) => {
      const { target, mr } = await load(project, params.merge_request_iid);
      const source = await sourceProjectOf(deps, mr, target);
      if (!source || (await branchHead(await readRepository(deps, source), mr.source_branch)) === null) throw new ForbiddenError('Source branch does not exist');
      if (!(await mayWriteSourceBranch(deps, actor.user, mr, target, source))) throw new ForbiddenError('Cannot push to source branch');
      const scheduled = await scheduleRebase(deps, Number(mr.id), actor.user.id, params.skip_ci ?? false);
      if (!scheduled) throw new StatusError(409, 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.');
      return { rebase_in_progress: true };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/approvals', summary: 'Who approved a merge request and how many approvals it needs', tags: TAGS,
    ability: { project: 'read_merge_request' }, auth: 'optional', params: iidParam,
    handler: async ({ params, principal, project }) => {
      const { access, target, mr } = await load(project, params.merge_request_iid);
      return approvalsEntity(deps, access, mr, target, principal?.user ?? null);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/approval_state', summary: 'The approval rules of a merge request and their state', tags: TAGS,
    ability: { project: 'read_merge_request' }, auth: 'optional', params: iidParam,
    handler: async ({ params, principal, project }) => {
      const { access, target, mr } = await load(project, params.merge_request_iid);
      return approvalStateEntity(deps, access, mr, target, principal?.user ?? null);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/approve', summary: 'Approve a merge request', tags: TAGS,
    ability: { project: 'read_merge_request' },
    params: { ...iidParam, sha: p.string.optional({ max: 64 }), approval_password: p.string.optional() },
    handler: async ({ params, actor, project }) => {
      const { access, target, mr } = await load(project, params.merge_request_iid);
      await approveMergeRequest(deps, access, actor.user, mr, target, params.sha);
      return approvalsEntity(deps, access, mr, target, actor.user);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/unapprove', summary: 'Withdraw an approval', tags: TAGS,
    ability: { project: 'read_merge_request' },
    params: iidParam,
    handler: async ({ params, actor, project }) => {
      const { access, target, mr } = await load(project, params.merge_request_iid);
      await unapproveMergeRequest(deps, actor.user, mr);
      return approvalsEntity(deps, access, mr, target, actor.user);
    },
  });
}
