// Merge requests (issue 34): propose a branch for merging, with its diff versions, a mergeability
// check in the background, and GitLab's API. Notes on merge requests live in `notes`
// (noteable_type 'MergeRequest'); review plugs its facts in through hooks.ts.
import type { Feature } from '../platform/feature.js';
import { mergeRequestsRoutes } from './routes.js';
import { CHECK_JOB, checkMergeabilityJob } from './check-mergeability.js';
import { REBASE_JOB, rebaseJob } from './rebase-merge-request.js';
import { enqueueRefresh, REFRESH_JOB, refreshMergeRequestsJob } from './refresh-merge-requests.js';
import { reviewJobs, reviewSetup } from './review/index.js';
import { AUTO_MERGE_JOB } from './arm-auto-merge.js';
import { AUTO_MERGE_PIPELINE_JOB, autoMergeJob, autoMergePipelineJob, onPipelineStatus } from './auto-merge-job.js';
import { pushMessages } from './push-messages.js';
import { collaborationBranches } from './source-branch-access.js';
import { repositoryHooks } from '../repositories/api.js';

// The merge request pages are a Feature of their own (registered after the API's routes).
export { mergeRequestPagesFeature } from './pages/index.js';

export const mergeRequestsFeature: Feature = {
  name: 'merge-requests',
  setup(deps) {
    // Every pushed branch (git over HTTP, the repository API) refreshes the merge requests from and into it.
    deps.domainEvents.on('push', (tx, event) => enqueueRefresh(tx, deps, event));
    // A head pipeline that succeeds merges the merge requests armed to merge when it does.
    deps.domainEvents.on('pipeline.status_changed', (tx, event) => onPipelineStatus(tx, deps, event));
    reviewSetup(deps);
    repositoryHooks(deps).pushMessages = (project, updates) => pushMessages(deps, project, updates);
    repositoryHooks(deps).collaborationBranches = (fork, user) => collaborationBranches(deps, fork, user);
  },
  routes: mergeRequestsRoutes,
  jobs: {
    [CHECK_JOB]: checkMergeabilityJob,
    [REFRESH_JOB]: refreshMergeRequestsJob,
    [REBASE_JOB]: rebaseJob,
    [AUTO_MERGE_JOB]: autoMergeJob,
    [AUTO_MERGE_PIPELINE_JOB]: autoMergePipelineJob,
    ...reviewJobs,
  },
};
