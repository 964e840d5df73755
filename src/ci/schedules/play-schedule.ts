// "Play" a pipeline schedule now (GitLab's play_pipeline_schedule): whoever may create pipelines,
// except on a protected ref they may not push or merge to (a tag: create), as GitLab's
// PipelineSchedulePolicy `protected_ref` rule. The pipeline is made in the background, as the player.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { assertMayUpdateRef } from '../jobs/protected-ref-access.js';
import { RUN_SCHEDULE_JOB } from './run-schedules.js';
import { scheduleRef, type PipelineScheduleRow } from './schedule-store.js';

export async function playSchedule(deps: Deps, project: ProjectRow, user: AuthUser, row: PipelineScheduleRow): Promise<void> {
  const ref = scheduleRef(row.ref);
  await assertMayUpdateRef(deps, project, user, { ref: ref.ref, tag: ref.tag ?? false });
  await enqueue(deps.db, deps.clock, RUN_SCHEDULE_JOB, { scheduleId: Number(row.id), userId: user.id });
  deps.pokeWorker();
}
