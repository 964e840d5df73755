// What other features may use of events. Everything else in this folder is internal
// (docs/architecture.md, "Boundaries").
// Deleting events (an issue or a comment deleted with theirs) makes this node's cached counts stale.
export { forgetEventCounts } from './count-cache.js';
// Issue 16: the activity list as pages show it (project overview, user profiles).
export { renderActivity } from './pages/activity-list.js';
export { eventAccess } from './visibility.js';
