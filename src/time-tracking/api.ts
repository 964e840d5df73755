// Time tracking of issues and merge requests, shared by both features: each registers the routes
// with its own kind (how to load one, write its system note, send its hook).
export { timeTrackingRoutes, type TimeTrackingRoutesKind } from './routes.js';
export { parseTimeTracking, humanDuration, humanTimeChange, timeStatsEntity } from './duration.js';
export { totalTimeSpent, type TimeTrackable, type TimeChange } from './track.js';
