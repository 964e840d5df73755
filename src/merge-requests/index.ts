// Merge requests (issue 34): propose a branch for merging, with its diff versions, a mergeability
// check in the background, and GitLab's API. Notes on merge requests live in `notes`
// (noteable_type 'MergeRequest'); review plugs its facts in through hooks.ts.
import type { Feature } from '../platform/feature.js';
import { mergeRequestsRoutes } from './routes.js';
import { CHECK_JOB, checkMergeabilityJob } from './check-mergeability.js';
import { reviewSetup } from './review/index.js';

export const mergeRequestsFeature: Feature = {
  name: 'merge-requests',
  setup: reviewSetup,
  routes: mergeRequestsRoutes,
  jobs: {
    [CHECK_JOB]: checkMergeabilityJob,
  },
};
