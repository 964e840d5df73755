// Repositories: storage shards, git smart HTTP, and group and snippet repository storage moves with their worker.
import type { Feature } from '../platform/feature.js';
import { namespacedRoute } from '../platform/http/namespaced-routes.js';
import { storageMoveRoutes } from './routes.js';
import { projectStorageRoutes } from './project-storage-routes.js';
import { protectedBranchesRoutes } from './protected-branches/routes.js';
import { protectedTagsRoutes } from './protected-branches/tag-routes.js';
import { commitCommentRoutes } from './commit-comments/routes.js';
import { repositoryApiRoutes } from './repository-api/routes.js';
import { commitSignatureRoutes } from './commit-signatures/routes.js';
import { GIT_URL, serveGit } from './git-http/serve-git.js';
import { lfsRoutes } from './lfs/routes.js';
import { bulkStorageMovesJob } from './schedule-bulk-storage-moves.js';
import { storageMoveJob } from './run-storage-move.js';
import { MOVE_KINDS } from './move-kinds.js';
import { recoverStorageMoves } from './recover-moves.js';
import { storagePages } from './pages.js';
import { repositoryPages } from './pages/index.js';
import { repositorySettingsPages } from './settings-pages/index.js';
import { PRUNE_ORPHANS_JOB, pruneOrphansJob } from './prune-orphans.js';
import { scheduleOnce } from '../platform/jobs/daily.js';
import { accountHooks } from '../accounts/api.js';
import { changeHead } from './change-head.js';
import { initializeRepository } from './repository-api/initialize-repository.js';
import { isValidRefName } from './repository-api/ref-names.js';
import { projectStatistics } from './project-statistics.js';
import { checkLfsPointers } from './lfs/push-check.js';
import { repositoryHooks } from './hooks.js';
import { markdownHooks } from '../markdown/api.js';
import { readableRepository } from './repository-api/project-repository.js';
import { readCommits } from './repository-api/object-reader.js';
import { commitTitle } from './record-push-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import { PAGE_CACHES_JOB, pageCachesJob, takePageCachesJob } from './page-caches-job.js';
import { defaultBranchRef } from './push-queries.js';
import { countPush } from './housekeeping/count-pushes.js';
import { HOUSEKEEPING_JOB } from './housekeeping/schedule.js';
import { housekeepingJob } from './housekeeping/housekeeping-job.js';
import { housekeepingRoutes } from './housekeeping/routes.js';
import { COMMIT_GRAPH_JOB, commitGraphJob, queueCommitGraphAfterPush } from './housekeeping/commit-graph-job.js';

export const repositoriesFeature: Feature = {
  name: 'repositories',
  setup(deps) {
    // A project's default branch is its repository's HEAD (PUT /projects/:id default_branch).
    accountHooks(deps).changeDefaultBranch = (projectId, branch) => changeHead(deps, projectId, branch);
    accountHooks(deps).initializeRepository = (access, initial) => initializeRepository(deps, access, initial);
    accountHooks(deps).isValidBranchName = isValidRefName;
    repositoryHooks(deps).checkPushedObjects = (project, repoPath, quarantine, updates) => checkLfsPointers(deps, project, repoPath, quarantine, updates);
    accountHooks(deps).projectStatistics = async (project) => ({ ...(await projectStatistics(deps, project)) });
    // Commit references in Markdown (`1a2b3c4`, `project@1a2b3c4`) link to commits that exist.
    markdownHooks(deps).readCommits = async (project, revisions) => {
      const repoPath = await readableRepository(deps, project);
      if (!repoPath) return [];
      return [...(await readCommits(repoPath, revisions)).values()].map((commit) => ({ id: commit.id, title: commitTitle(commit.message) ?? '' }));
    };
    // A branch or tag pushed: its tree pages' last commits and recent files' blame are computed in
    // the background, so that the first view after the push reads them (page-caches-job.ts). At most
    // MAX_PAGE_CACHES_JOBS_PER_PUSH a push (its events share one transaction; branches come before
    // tags), one of them kept for the default branch: a push of a thousand old tags stays bounded,
    // their pages computed on a first view, and the default branch's job is always among them.
    // Every push counts towards the repository's next housekeeping (housekeeping/count-pushes.ts),
    // and brings its commit-graph up to the new refs in the background (housekeeping/commit-graph-job.ts),
    // queued before the page-cache jobs so that their walks use it.
    deps.domainEvents.on('push', (tx, event) => countPush(deps, tx, event.projectId));
    deps.domainEvents.on('push', (tx, event) => queueCommitGraphAfterPush(deps, tx, event.projectId));
    deps.domainEvents.on('push', async (tx, event) => {
      if (event.after === null || !/^refs\/(heads|tags)\//.test(event.ref)) return;
      if (!(await takePageCachesJob(tx, event.ref, () => defaultBranchRef(tx, event.projectId)))) return;
      await enqueue(tx, deps.clock, PAGE_CACHES_JOB, { projectId: event.projectId, ref: event.ref, before: event.before, after: event.after });
    });
  },
  routes(app, deps) {
    storageMoveRoutes(app, deps);
    projectStorageRoutes(app, deps);
    protectedBranchesRoutes(app, deps);
    protectedTagsRoutes(app, deps);
    commitCommentRoutes(app, deps);
    repositoryApiRoutes(app, deps);
    commitSignatureRoutes(app, deps);
    housekeepingRoutes(app, deps);
    namespacedRoute(app, {
      method: ['GET', 'POST'],
      pattern: GIT_URL,
      // Git's own protocol: HTTP Basic credentials with its 401 challenge, then `download_code` for a
      // fetch or `push_code` for a push on the project (or the group of a wiki), which serve-git.ts
      // asks once it knows the service (git-access.ts).
      ability: { credential: 'git_http' },
      handler: (request, reply, groups) => serveGit(deps, request, reply, { path: groups.path, action: groups.action }),
    });
    lfsRoutes(app, deps);
    storagePages(app, deps);
    repositorySettingsPages(app, deps);
    repositoryPages(app, deps);
  },
  jobs: {
    ...Object.fromEntries(MOVE_KINDS.flatMap((kind) => [[kind.moveJob, storageMoveJob(kind)], [kind.bulkJob, bulkStorageMovesJob(kind)]])),
    [PRUNE_ORPHANS_JOB]: pruneOrphansJob,
    [PAGE_CACHES_JOB]: pageCachesJob,
    [HOUSEKEEPING_JOB]: housekeepingJob,
    [COMMIT_GRAPH_JOB]: commitGraphJob,
  },
  async onStart(deps) {
    await recoverStorageMoves(deps);
    await scheduleOnce(deps, PRUNE_ORPHANS_JOB, deps.clock.now(), { orRunning: true });
  },
};
