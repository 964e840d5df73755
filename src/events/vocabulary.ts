// GitLab's event vocabulary as the API shows it (GitLab's REST API documentation): the target type filters and the
// action names. The stored actions and target types are platform/events/vocabulary.ts.
import { EVENT_TARGET_TYPES, type PushData } from '../platform/events/vocabulary.js';

/** Filter values of `target_type` (lower case) as the API accepts them (GitLab's REST API documentation). */
export const TARGET_TYPE_FILTERS = Object.keys(EVENT_TARGET_TYPES) as Array<keyof typeof EVENT_TARGET_TYPES>;

/**
 * GitLab's `Event#action_name` (GitLab's REST API documentation), first match wins. Pushes are told apart by the
 * ref change: a new ref has no `commit_from`, a deleted ref no `commit_to`.
 */
export function actionName(event: { action: string; target_type: string | null; push_data: PushData | null }): string {
  if (event.action === 'pushed') {
    if (event.push_data?.action === 'created') return 'pushed new';
    if (event.push_data?.action === 'removed') return 'deleted';
    return 'pushed to';
  }
  switch (event.action) {
    case 'closed': return 'closed';
    case 'merged': return 'accepted';
    case 'joined': return 'joined';
    case 'left': return 'left';
    case 'expired': return 'removed due to membership expiration from';
    case 'destroyed': return 'destroyed';
    case 'commented': return 'commented on';
    case 'approved': return 'approved';
    // A wiki page's events read as what happened to the page (GitLab's created_wiki_page?, updated_wiki_page?).
    case 'created': return event.target_type === null || event.target_type === EVENT_TARGET_TYPES.wiki ? 'created' : 'opened';
    case 'updated': return event.target_type === EVENT_TARGET_TYPES.wiki ? 'updated' : 'opened';
    default: return 'opened';
  }
}
