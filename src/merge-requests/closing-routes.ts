// Issues and the merge requests that close them (doc/api/merge_requests.md `closes_issues`,
// doc/api/issues.md `closed_by`): what the caller may read of each side.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { findReadableIssue, presentIssues, readableIssuesQuery } from '../issues/api.js';
import { findMergeRequest } from './finder.js';
import { presentMergeRequests } from './present.js';
import { closedByMergeRequestCondition, closingIssueCondition, readableMergeRequestsQuery } from './merge-requests-queries.js';
import { iidParam } from './mr-routes.js';
import { relatedMergeRequestIds } from './related-merge-requests.js';

export function mergeRequestClosingRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/closes_issues', summary: 'The issues merging this merge request closes', tags: ['merge_requests'], paginated: true,
    ability: { project: 'read_merge_request' }, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const access = await ctx.project();
      const mr = await findMergeRequest(deps.db, Number(access.project.id), ctx.params.merge_request_iid);
      const viewer = ctx.principal?.user ?? null;
      const query = readableIssuesQuery(deps, viewer, { everywhere: true }, { orderBy: 'created_at', sort: 'asc' })
        .where(closedByMergeRequestCondition(Number(mr.id)));
      return presentIssues(deps, await ctx.paginate(query));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid/closed_by', summary: 'The merge requests that close an issue when merged', tags: ['issues'], paginated: true,
    ability: { project: 'read_issue' }, auth: 'optional', params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.project();
      const issue = await findReadableIssue(deps, access, ctx.params.issue_iid);
      const query = readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { everywhere: true }, { state: 'all', orderBy: 'created_at', sort: 'asc' })
        .where(closingIssueCondition(Number(issue.id)));
      return presentMergeRequests(deps, await ctx.paginate(query), { from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) } });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/issues/:issue_iid/related_merge_requests', summary: 'The merge requests that close or refer to an issue', tags: ['issues'], paginated: true,
    ability: { project: 'read_issue' }, auth: 'optional', params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async (ctx) => {
      const access = await ctx.project();
      const issue = await findReadableIssue(deps, access, ctx.params.issue_iid);
      const ids = await relatedMergeRequestIds(deps, { id: Number(issue.id), iid: Number(issue.iid), project_id: Number(issue.project_id) }, access.project.full_path);
      // Only what the caller may read of them (readableMergeRequestsQuery), as closed_by.
      const query = readableMergeRequestsQuery(deps, ctx.principal?.user ?? null, { everywhere: true }, { state: 'all', orderBy: 'created_at', sort: 'asc' })
        .where('m.id', 'in', ids.length ? ids : [0]);
      return presentMergeRequests(deps, await ctx.paginate(query), { from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) } });
    },
  });
}
