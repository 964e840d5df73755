import type { Generated } from 'kysely';

/** A user's request to join a group (`Namespace`) or project; approving it makes a member. */
export interface AccessRequestsTable {
  id: Generated<number>;
  source_type: 'Namespace' | 'Project';
  source_id: number;
  user_id: number;
  requested_at: number;
}

export interface AccessRequestsTables {
  access_requests: AccessRequestsTable;
}
