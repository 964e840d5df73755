// POST /projects/:id/issues/:issue_iid/subscribe and /unsubscribe, and the same for
// /merge_requests/:merge_request_iid (GitLab's lib/api/subscriptions.rb): 201 with the issue or merge
// request, or 304 Not Modified when the caller already was (or was not) subscribed.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ApiError } from '../platform/http/api-error.js';
import { findReadableIssue, presentIssue } from '../issues/api.js';
import { findMergeRequest, presentMergeRequest } from '../merge-requests/api.js';
import { issueSubscribable, mergeRequestSubscribable, setSubscription } from './subscriptions.js';

export function subscriptionRoutes(app: FastifyInstance, deps: Deps): void {
  for (const action of ['subscribe', 'unsubscribe'] as const) {
    apiRoute(app, deps, {
      method: 'POST', url: `/projects/:id/issues/:issue_iid/${action}`, tags: ['issues'],
      summary: action === 'subscribe' ? 'Subscribe to notifications of an issue (304 when already subscribed)' : 'Unsubscribe from notifications of an issue (304 when not subscribed)',
      ability: { project: 'read_issue' },
      params: { id: p.string.required(), issue_iid: p.integer.required() },
      handler: async ({ params, actor, project }) => {
        const access = await project();
        const issue = await findReadableIssue(deps, access, params.issue_iid);
        const subscribed = action === 'subscribe';
        if (!(await setSubscription(deps, actor.user.id, issueSubscribable(issue), subscribed))) throw new ApiError(304, { message: '304 Not Modified' });
        return { ...(await presentIssue(deps, issue, access.project)), subscribed };
      },
    });
    apiRoute(app, deps, {
      method: 'POST', url: `/projects/:id/merge_requests/:merge_request_iid/${action}`, tags: ['merge_requests'],
      summary: action === 'subscribe' ? 'Subscribe to notifications of a merge request (304 when already subscribed)' : 'Unsubscribe from notifications of a merge request (304 when not subscribed)',
      ability: { project: 'read_merge_request' },
      params: { id: p.string.required(), merge_request_iid: p.integer.required() },
      handler: async ({ params, actor, project }) => {
        const access = await project();
        const mr = await findMergeRequest(deps.db, Number(access.project.id), params.merge_request_iid);
        if (!(await setSubscription(deps, actor.user.id, mergeRequestSubscribable(mr), action === 'subscribe'))) throw new ApiError(304, { message: '304 Not Modified' });
        return presentMergeRequest(deps, mr, { viewer: actor.user, from: { projectId: Number(access.project.id), namespaceId: Number(access.project.namespace_id) } });
      },
    });
  }
}
