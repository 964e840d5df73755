// What other features may use of merge requests. Everything else in this folder is internal.
// Hooks other features register at setup for merge requests to call (hooks.ts).
export { mergeRequestHooks, type MergeRequestHooks, type WidgetSection } from './hooks.js';
// Webhooks (Merge Request Hook, Note Hook on merge requests): the facts a payload shows.
export { mergeRequestHookFacts, type MergeRequestHookFacts } from './hook-facts.js';
// Search (scope merge_requests): the listings' queries and the entity of a page.
export { projectMergeRequestsQuery, readableMergeRequestsQuery, type MergeRequestFilters } from './merge-requests-queries.js';
export { presentMergeRequests } from './present.js';
// Forks: unlinking a fork closes the merge requests between it and its network.
export { closeForkMergeRequests } from './close-fork-merge-requests.js';
// Notifications (issue 34): subscribe and unsubscribe answer with the merge request.
export { findMergeRequest } from './finder.js';
export { presentMergeRequest } from './present-one.js';
