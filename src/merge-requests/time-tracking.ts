// Time estimates of merge requests (GitLab's TimeTrackingEndpoints, doc/api/merge_requests.md "Time
// tracking"): set and reset the estimate, read the time stats. Durations are read as GitLab's
// TimeTrackingFormatter reads them: 1mo = 4w, 1w = 5d, 1d = 8h, and a bare number is hours.
// Spent time (add_spent_time, reset_spent_time) needs timelogs, which Kiln does not keep.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ValidationError } from '../platform/errors.js';
import { inTransaction } from '../platform/db/database.js';
import { findMergeRequest, findMergeRequestById } from './finder.js';
import { iidParam } from './mr-routes.js';
import { humanDuration, timeStatsEntity } from './entities.js';
import { addSystemNote } from './system-notes.js';
import type { MergeRequestRow } from './rows.js';

const TAGS = ['merge_requests'];
const HOUR = 3600;
const UNITS: Array<[RegExp, number]> = [
  [/^(mo|mos|months?)$/, 4 * 5 * 8 * HOUR],
  [/^(w|wks?|weeks?)$/, 5 * 8 * HOUR],
  [/^(d|days?)$/, 8 * HOUR],
  [/^(h|hrs?|hours?)$/, HOUR],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(s|secs?|seconds?)$/, 1],
];
/** Past this the estimate would not fit GitLab's integer column. */
const MAX_SECONDS = 2_147_483_647;

/** Seconds of a duration such as `3h 30m`, `1w 2d` or `2` (hours); null when it is none. */
export function parseTimeTracking(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed.length > 100) return null;
  const pattern = /(\d+(?:\.\d+)?)\s*([a-z]*)\s*,?\s*/y;
  let total = 0;
  let end = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(trimmed))) {
    const size = match[2] === '' ? HOUR : UNITS.find(([unit]) => unit.test(match![2]))?.[1];
    if (size === undefined) return null;
    total += Number(match[1]) * size;
    end = pattern.lastIndex;
  }
  if (end === 0 || end !== trimmed.length) return null;
  const seconds = Math.round(total);
  return seconds <= MAX_SECONDS ? seconds : null;
}

async function setEstimate(deps: Deps, actorId: number, mr: MergeRequestRow, seconds: number): Promise<MergeRequestRow> {
  if (Number(mr.time_estimate) === seconds) return mr;
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('merge_requests').set({ time_estimate: seconds, updated_at: now }).where('id', '=', Number(mr.id)).execute();
    await addSystemNote(trx, mr, actorId, seconds === 0 ? 'removed time estimate' : `changed time estimate to ${humanDuration(seconds)}`, now);
  });
  return (await findMergeRequestById(deps.db, Number(mr.id)))!;
}

export function mergeRequestTimeTrackingRoutes(app: FastifyInstance, deps: Deps): void {
  const load = async (project: () => Promise<import('../platform/auth/subjects.js').ProjectAccess>, iid: number) =>
    findMergeRequest(deps.db, Number((await project()).project.id), iid);

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/time_estimate', summary: 'Set the time estimate of a merge request', tags: TAGS,
    ability: { project: 'update_merge_request' }, status: 200,
    params: { ...iidParam, duration: p.string.required({ description: 'e.g. 3h30m; 1mo = 4w, 1w = 5d, 1d = 8h' }) },
    handler: async ({ params, actor, project }) => {
      const mr = await load(project, params.merge_request_iid);
      const seconds = parseTimeTracking(params.duration);
      if (seconds === null) throw new ValidationError({ time_estimate: ['must have a valid format and be greater than or equal to zero.'] });
      return timeStatsEntity(await setEstimate(deps, actor.user.id, mr, seconds));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', summary: 'Reset the time estimate of a merge request', tags: TAGS,
    ability: { project: 'update_merge_request' }, status: 200,
    params: iidParam,
    handler: async ({ params, actor, project }) => timeStatsEntity(await setEstimate(deps, actor.user.id, await load(project, params.merge_request_iid), 0)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/time_stats', summary: 'Time tracking stats of a merge request', tags: TAGS,
    ability: { project: 'read_merge_request' }, auth: 'optional',
    params: iidParam,
    handler: async ({ params, project }) => timeStatsEntity(await load(project, params.merge_request_iid)),
  });
}
