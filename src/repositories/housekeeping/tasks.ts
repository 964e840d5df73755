// What each housekeeping task asks of git (GitLab's HousekeepingService tasks; GitLab hands them to
// Gitaly, Kiln runs git's own commands on the repository).
//
// A push leaves the objects it brought loose unless it carried 100 or more (`transfer.unpackLimit`),
// and every loose object and pack is one more place each read looks: a repository of many small pushes
// gets slower to read, blame above all (docs/performance.md). Pushes count towards the next run:
// every `housekeeping_optimize_repository_period` pushes (10) the loose objects are packed, every fifth
// such run the whole repository is repacked, and every twentieth git's full `gc` runs — the 10/50/200
// pushes of GitLab's periods before 15.8 folded them into one. The API's and the settings page's
// `eager` is the full `gc`; `prune` also drops unreachable objects older than 30 minutes instead of
// git's two weeks (a push's objects are in its quarantine until its refs move, so a push in flight
// never loses any). Forks own their objects (fork-repository.ts), so nothing here reaches another
// repository. Every task ends with the commit-graph written (housekeeping-job.ts, commit-graph.ts):
// `gc` does not write its own (it would write one without Bloom filters where none were yet).
export const HOUSEKEEPING_TASKS = ['incremental_repack', 'full_repack', 'gc', 'eager', 'prune'] as const;
export type HousekeepingTask = (typeof HOUSEKEEPING_TASKS)[number];

/** The tasks a project's maintainer may ask for (POST /projects/:id/housekeeping `task`). */
export const MANUAL_TASKS = ['eager', 'prune'] as const;

/** How many optimize periods apart a full repack and a gc come (GitLab's old 10, 50 and 200 pushes). */
export const FULL_REPACK_EVERY = 5;
export const GC_EVERY = 20;

/** The task due after `pushes` pushes, or null when `pushes` is not a multiple of the period. */
export function taskAfterPushes(pushes: number, period: number): HousekeepingTask | null {
  if (pushes <= 0 || pushes % period !== 0) return null;
  if (pushes % (period * GC_EVERY) === 0) return 'gc';
  if (pushes % (period * FULL_REPACK_EVERY) === 0) return 'full_repack';
  return 'incremental_repack';
}

/** The git commands of `task`, in order, each run in the bare repository (the commit-graph's write follows them). */
export function gitCommandsOf(task: HousekeepingTask): string[][] {
  switch (task) {
    case 'incremental_repack':
      // The loose objects into one new pack; the loose copies go (-d), the packs stay as they are.
      return [['repack', '-d', '-q']];
    case 'full_repack':
      // Every object into one pack with a bitmap; unreachable ones are loosened, not dropped (-A), so
      // they stay for git's grace period. Refs packed.
      return [['repack', '-A', '-d', '-q', '--write-bitmap-index'], ['pack-refs', '--all']];
    case 'gc':
    case 'eager':
      return [['-c', 'gc.writeCommitGraph=false', 'gc', '--quiet']];
    case 'prune':
      return [['-c', 'gc.writeCommitGraph=false', 'gc', '--quiet', '--prune=30.minutes.ago']];
  }
}

/**
 * Whether the commit-graph is written anew as one layer after `task`: after a full repack or a gc,
 * which may have dropped unreachable commits its layers name, and which run seldom enough to merge the
 * layers the pushes since added. After an incremental repack a new layer is enough.
 */
export const replacesCommitGraph = (task: HousekeepingTask): boolean => task !== 'incremental_repack';
