// One merge request as GitLab's MergeRequest entity: the page links of present.ts plus what only
// the single view shows (changes_count, user.can_merge, the opt-in counts).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canMergeToBranch, gitBytes } from '../repositories/api.js';
import { mergeRequestEntity, type MergeRequestRow, type ReferenceFrom } from './entities.js';
import { loadLinks } from './present.js';
import { readRepository } from './mr-repository.js';
import { mergeRequestHooks } from './hooks.js';

export interface SingleOptions {
  viewer: AuthUser | null;
  from: ReferenceFrom;
  includeDivergedCommitsCount?: boolean;
  includeRebaseInProgress?: boolean;
}

/** Target commits the source lacks (diverged_commits_count), 0 when a branch is gone. */
async function divergedCommits(deps: Deps, mr: MergeRequestRow, repoPath: string | null): Promise<number> {
  if (repoPath === null || mr.state !== 'opened') return 0;
  const count = await gitBytes(repoPath, ['rev-list', '--count', `refs/heads/${mr.target_branch}`, `^refs/heads/${mr.source_branch}`, '--']).catch(() => null);
  return count === null ? 0 : Number(count.toString().trim()) || 0;
}

export async function presentMergeRequest(deps: Deps, mr: MergeRequestRow, options: SingleOptions) {
  const page = await loadLinks(deps, [mr], { from: options.from });
  const links = page.links(mr);
  const repoPath = options.includeDivergedCommitsCount ? await readRepository(deps, links.target) : null;
  const subscribed = mergeRequestHooks(deps).subscribed;
  const [canMerge, diverged, isSubscribed] = await Promise.all([
    mr.state === 'opened' ? canMergeToBranch(deps, links.target, options.viewer, mr.target_branch) : Promise.resolve(false),
    options.includeDivergedCommitsCount ? divergedCommits(deps, mr, repoPath) : Promise.resolve(undefined),
    options.viewer && subscribed
      ? subscribed(options.viewer, { id: Number(mr.id), description: mr.description, participantIds: [Number(mr.author_id), ...links.assigneeIds, ...links.reviewerIds] })
      : Promise.resolve(false),
  ]);
  return mergeRequestEntity(deps.config.baseUrl, mr, links, {
    subscribed: isSubscribed,
    changesCount: links.latestDiff?.real_size ?? null,
    canMerge,
    divergedCommitsCount: diverged,
    includeRebaseInProgress: options.includeRebaseInProgress,
  });
}
