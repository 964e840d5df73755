// GitLab's TimeTrackingEndpoints for one noteable kind (issues, merge requests): set and reset the
// estimate, add and reset spent time, read the time stats. Durations are GitLab's human format
// (duration.ts); each change answers the IssuableTimeStats entity.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { ProjectAbility } from '../platform/auth/policies/abilities.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ParamError, ValidationError } from '../platform/errors.js';
import { parseTimeTracking, timeStatsEntity } from './duration.js';
import { setTimeEstimate, spendTime, totalTimeSpent, type TimeTrackable, type TimeTrackingKind } from './track.js';

export interface TimeTrackingRoutesKind<T extends TimeTrackable> extends TimeTrackingKind<T> {
  /** The path segment and iid parameter: `issues` / `issue_iid`, `merge_requests` / `merge_request_iid`. */
  segment: 'issues' | 'merge_requests';
  iidKey: 'issue_iid' | 'merge_request_iid';
  /** `an issue`, `a merge request` (route summaries). */
  noun: string;
  tags: string[];
  /** GitLab's read_issuable and admin_issuable abilities of this kind. */
  read: ProjectAbility;
  admin: ProjectAbility;
  /** The item by iid, 404 when the caller may not read it. */
  load(deps: Deps, access: ProjectAccess, iid: number): Promise<T>;
}

export function timeTrackingRoutes<T extends TimeTrackable>(app: FastifyInstance, deps: Deps, kind: TimeTrackingRoutesKind<T>): void {
  const base = `/projects/:id/${kind.segment}/:${kind.iidKey}`;
  const idParams = { id: p.string.required(), [kind.iidKey]: p.integer.required() } as { id: ReturnType<typeof p.string.required>; iid: ReturnType<typeof p.integer.required> };
  const iidOf = (params: unknown) => (params as Record<string, number>)[kind.iidKey]!;
  const stats = async (item: T, estimate = item.timeEstimate) => timeStatsEntity(estimate, await totalTimeSpent(deps.db, kind.column, item.id));
  const tags = kind.tags;

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/time_estimate`, summary: `Set the time estimate of ${kind.noun}`, tags, ability: { project: kind.admin }, status: 200,
    params: { ...idParams, duration: p.string.required({ description: 'e.g. 3h30m; 1mo = 4w, 1w = 5d, 1d = 8h' }) },
    handler: async ({ params, actor, project }) => {
      const item = await kind.load(deps, await project(), iidOf(params));
      const seconds = parseTimeTracking(params.duration);
      if (seconds === null) throw new ValidationError({ time_estimate: ['must have a valid format and be greater than or equal to zero.'] });
      return stats(item, await setTimeEstimate(deps, kind, actor.user.id, item, seconds));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/reset_time_estimate`, summary: `Reset the time estimate of ${kind.noun}`, tags, ability: { project: kind.admin }, status: 200,
    params: idParams,
    handler: async ({ params, actor, project }) => {
      const item = await kind.load(deps, await project(), iidOf(params));
      return stats(item, await setTimeEstimate(deps, kind, actor.user.id, item, 0));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/add_spent_time`, summary: `Add spent time to ${kind.noun} (a leading - subtracts)`, tags, ability: { project: kind.admin }, status: 201,
    params: { ...idParams, duration: p.string.required({ description: 'e.g. 1h30m, or -30m to subtract' }), summary: p.string.optional({ max: 255 }) },
    handler: async ({ params, actor, project }) => {
      const item = await kind.load(deps, await project(), iidOf(params));
      const seconds = parseTimeTracking(params.duration, { signed: true });
      if (seconds === null || seconds === 0) throw new ParamError('duration is invalid');
      const spent = await spendTime(deps, kind, actor.user.id, item, { seconds, summary: params.summary ?? null });
      return timeStatsEntity(item.timeEstimate, spent);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/reset_spent_time`, summary: `Reset the spent time of ${kind.noun}`, tags, ability: { project: kind.admin }, status: 200,
    params: idParams,
    handler: async ({ params, actor, project }) => {
      const item = await kind.load(deps, await project(), iidOf(params));
      return timeStatsEntity(item.timeEstimate, await spendTime(deps, kind, actor.user.id, item, 'reset'));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/time_stats`, summary: `Time tracking stats of ${kind.noun}`, tags, ability: { project: kind.read }, auth: 'optional',
    params: idParams,
    handler: async ({ params, project }) => stats(await kind.load(deps, await project(), iidOf(params))),
  });
}
