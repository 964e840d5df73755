// POST /projects/:id/labels/:label_id/subscribe and /unsubscribe, and the same under /groups/:id
// (GitLab's lib/api/subscriptions.rb): the label by id or title (python-gitlab sends the title),
// anyone who may read the labels, 201 with the label, or 304 Not Modified when the caller already
// was (or was not) subscribed. From a project the subscription holds in that project; from the group,
// for the label everywhere (subscriptions.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ApiError } from '../platform/http/api-error.js';
import { findLabel } from './finder.js';
import { labelEntity, projectLabelEntity } from './entities.js';
import { subscribeToLabel, unsubscribeFromLabel, type LabelSubscriptionScope } from './subscriptions.js';

const TAGS = ['labels'];

/** Subscribe or unsubscribe; 304 when nothing changed. */
async function setLabelSubscription(deps: Deps, userId: number, labelId: number, scope: LabelSubscriptionScope, subscribe: boolean): Promise<void> {
  const changed = subscribe ? await subscribeToLabel(deps, userId, labelId, scope) : await unsubscribeFromLabel(deps, userId, labelId, scope);
  if (!changed) throw new ApiError(304, { message: '304 Not Modified' });
}

export function labelSubscriptionRoutes(app: FastifyInstance, deps: Deps): void {
  for (const action of ['subscribe', 'unsubscribe'] as const) {
    const subscribe = action === 'subscribe';
    apiRoute(app, deps, {
      method: 'POST', url: `/projects/:id/labels/:label_id/${action}`, tags: TAGS,
      summary: subscribe ? 'Subscribe to a label of the project (by id or title; 304 when already subscribed)' : 'Unsubscribe from a label of the project (304 when not subscribed)',
      ability: { project: 'read_label' },
      params: { id: p.string.required(), label_id: p.string.required() },
      handler: async ({ params, actor, project }) => {
        const access = await project();
        const label = await findLabel(deps, { project: access.project }, params.label_id);
        await setLabelSubscription(deps, actor.user.id, Number(label.id), { projectId: Number(access.project.id) }, subscribe);
        return projectLabelEntity(label, subscribe);
      },
    });
    apiRoute(app, deps, {
      method: 'POST', url: `/groups/:id/labels/:label_id/${action}`, tags: TAGS,
      summary: subscribe ? 'Subscribe to a group label (by id or title; 304 when already subscribed)' : 'Unsubscribe from a group label (304 when not subscribed)',
      ability: { group: 'read_label' },
      params: { id: p.string.required(), label_id: p.string.required() },
      handler: async ({ params, actor, group }) => {
        const access = await group();
        const label = await findLabel(deps, { group: access.group }, params.label_id);
        await setLabelSubscription(deps, actor.user.id, Number(label.id), { projectId: null }, subscribe);
        return labelEntity(label, subscribe);
      },
    });
  }
}
