// GitLab's application statistics: how many of each thing the instance holds, counted in one
// statement. Forks are the projects that name an upstream.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';

export interface InstanceCounts {
  users: number;
  activeUsers: number;
  blockedUsers: number;
  projects: number;
  groups: number;
  issues: number;
  mergeRequests: number;
  notes: number;
  sshKeys: number;
  milestones: number;
  forks: number;
  snippets: number;
}

const count = (table: string, where = sql``) => sql<number>`(select count(*) from ${sql.table(table)} ${where})`;

export async function instanceCounts(deps: Deps): Promise<InstanceCounts> {
  const row = await deps.db
    .selectNoFrom([
      count('users', sql`where user_type = 'human'`).as('users'),
      count('users', sql`where user_type = 'human' and state = 'active'`).as('active_users'),
      count('users', sql`where user_type = 'human' and state = 'blocked'`).as('blocked_users'),
      count('projects').as('projects'),
      count('namespaces', sql`where kind = 'group'`).as('groups'),
      count('issues').as('issues'),
      count('merge_requests').as('merge_requests'),
      count('notes').as('notes'),
      count('keys').as('ssh_keys'),
      count('milestones').as('milestones'),
      count('projects', sql`where forked_from_project_id is not null`).as('forks'),
      count('snippets').as('snippets'),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: Number(row.users), activeUsers: Number(row.active_users), blockedUsers: Number(row.blocked_users), projects: Number(row.projects),
    groups: Number(row.groups), issues: Number(row.issues), mergeRequests: Number(row.merge_requests), notes: Number(row.notes),
    sshKeys: Number(row.ssh_keys), milestones: Number(row.milestones), forks: Number(row.forks), snippets: Number(row.snippets),
  };
}
