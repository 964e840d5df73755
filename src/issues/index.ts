// Issues and their notes: a minimal GitLab-shaped API; incidents are issues of type `incident`.
import type { Feature } from '../platform/feature.js';
import { issuesRoutes } from './routes.js';
import { listenForSystemNotes } from './system-notes.js';
import { listenForResourceEvents } from './resource-events/record-resource-events.js';
import { CROSS_REFERENCE_JOB, crossReferenceJob } from './cross-references.js';

export const issuesFeature: Feature = { name: 'issues', routes: issuesRoutes, setup: (deps) => {
    listenForSystemNotes(deps);
    listenForResourceEvents(deps);
  }, jobs: { [CROSS_REFERENCE_JOB]: crossReferenceJob } };
// Issue 16: the issue and incident pages, a feature of their own registered after the API (features.ts).
export { issuePagesFeature } from './pages/index.js';
// Issue 36: issue boards (API and page), a feature of their own registered after the issues (features.ts).
export { boardsFeature } from './boards/index.js';
