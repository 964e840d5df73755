// What GitLab checks of a job just before a runner gets it (Ci::RegisterJobService's pre-assign
// checks): a job that may no longer run is failed with GitLab's reason instead of being handed out,
// and the runner is offered the next one. A push queues its pipeline in the pusher's name; by the time
// a runner asks, that user may have been blocked or banned, and GitLab then fails the job with
// `user_blocked` rather than running it under a blocked account's job token.
//
// The refusal follows the claim (the one atomic step that picks a job), so the job is `running` for
// the moment between: its Job Hook reports running, then failed, where GitLab's goes from pending to
// failed.
//
// GitLab's other checks have nothing to see here: Kiln's projects cannot be archived or scheduled for
// deletion, and dependencies are checked when their artifacts are sent.
import type { Deps } from '../platform/deps.js';
import { isBlockedState } from '../platform/auth/principal.js';
import { finishJob } from './jobs/runner-updates.js';
import { queueSignal } from './queue-signal.js';
import type { CiRunnerRow } from './entities.js';
import { claimJob, type Claimed } from './runners/claim-job.js';

/** Refused jobs per request at most: past them the runner is told 204 and asks again. */
const MAX_REFUSED = 20;

/** The failure reason that keeps a claimed job from running now, or null when it may run. */
export function preAssignRefusal(claimed: Claimed): 'user_blocked' | null {
  return claimed.userState !== null && isBlockedState(claimed.userState) ? 'user_blocked' : null;
}

/** claimJob, failing the jobs that may no longer run (each with its reason) until one may. */
export async function claimRunnable(deps: Deps, runner: CiRunnerRow): Promise<Claimed | null> {
  for (let refused = 0; refused < MAX_REFUSED; refused += 1) {
    const claimed = await claimJob(deps, runner);
    if (!claimed) return null;
    const reason = preAssignRefusal(claimed);
    if (!reason) return claimed;
    await finishJob(deps, claimed.build, 'failed', reason);
    // Its pipeline may have jobs to queue now (`when: on_failure`), for this runner or others.
    queueSignal(deps).tick();
  }
  return null;
}
