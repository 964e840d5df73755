// Abilities on one pipeline schedule (GitLab's PipelineSchedulePolicy). A schedule's pipelines run as
// its owner, so only the owner (while a Developer) or an administrator changes it or its variables;
// Maintainers take it over first (take_ownership), and may delete it. Whoever manages it sees its
// variables.
import type { PolicySubject } from '../../platform/auth/policies/policy.js';
import { canOnProject } from '../../platform/auth/policies/index.js';

const owns = (subject: PolicySubject, schedule: { owner_id: number | null }) =>
  subject.user !== null && schedule.owner_id !== null && Number(schedule.owner_id) === subject.user.id;

/** update_pipeline_schedule: edit it and its variables. */
export function canUpdateSchedule(subject: PolicySubject, schedule: { owner_id: number | null }): boolean {
  if (subject.user?.admin) return true;
  return owns(subject, schedule) && canOnProject(subject, 'update_build');
}

/** admin_pipeline_schedule: delete it, read its variables. */
export function canAdminSchedule(subject: PolicySubject, schedule: { owner_id: number | null }): boolean {
  return canOnProject(subject, 'admin_build') || canUpdateSchedule(subject, schedule);
}

/** take_ownership_pipeline_schedule. */
export function canTakeOwnership(subject: PolicySubject): boolean {
  return canOnProject(subject, 'admin_build');
}
