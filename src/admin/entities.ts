// GitLab's ApplicationStatistics entity: every count a string with thousands delimiters, as GitLab
// formats them.
import type { InstanceCounts } from './statistics-queries.js';

const delimited = (value: number) => value.toLocaleString('en-US');

export function applicationStatistics(counts: InstanceCounts) {
  return {
    forks: delimited(counts.forks),
    issues: delimited(counts.issues),
    merge_requests: delimited(counts.mergeRequests),
    notes: delimited(counts.notes),
    snippets: delimited(counts.snippets),
    ssh_keys: delimited(counts.sshKeys),
    milestones: delimited(counts.milestones),
    users: delimited(counts.users),
    groups: delimited(counts.groups),
    projects: delimited(counts.projects),
    active_users: delimited(counts.activeUsers),
  };
}
