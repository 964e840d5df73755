// The labels pages' Subscribe and Unsubscribe buttons (GitLab's toggle on Manage › Labels): a form
// POST per label, for any signed-in reader. From a project's page the subscription holds in that
// project, for its own labels and those it inherits; from a group's page, for the label everywhere.
// The same rules as the API (../subscriptions.ts); pressing twice changes nothing.
import type { PageContext } from '../../platform/web/page-route.js';
import { redirect } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { availableLabelsQuery } from '../finder.js';
import { subscribeToLabel, unsubscribeFromLabel, type LabelSubscriptionScope } from '../subscriptions.js';
import type { LabelPageParent } from './shared.js';

export const PROJECT_LABEL_SUBSCRIPTION_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/labels\/(?<id>\d{1,12})\/(?<action>subscribe|unsubscribe)$/;
export const GROUP_LABEL_SUBSCRIPTION_PATTERN = /^groups\/(?<path>.+?)\/-\/labels\/(?<id>\d{1,12})\/(?<action>subscribe|unsubscribe)$/;

/** Where the page's subscriptions hold. */
export function subscriptionScopeOf(target: LabelPageParent): LabelSubscriptionScope {
  return { projectId: 'project' in target.parent ? Number(target.parent.project.id) : null };
}

export async function handleLabelSubscription(context: PageContext, target: LabelPageParent) {
  const { deps, user, match } = context;
  const label = await (await availableLabelsQuery(deps, target.parent)).where('id', '=', Number(match.id)).executeTakeFirst();
  if (!label) throw new NotFoundError('Label');
  const subscribe = match.action === 'subscribe';
  const scope = subscriptionScopeOf(target);
  if (subscribe) await subscribeToLabel(deps, user.id, Number(label.id), scope);
  else await unsubscribeFromLabel(deps, user.id, Number(label.id), scope);
  return redirect(`${target.base}/-/labels`, subscribe ? `Subscribed to the label ${label.title}.` : `Unsubscribed from the label ${label.title}.`);
}
