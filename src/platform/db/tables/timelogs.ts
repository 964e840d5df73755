// Spent time of issues and merge requests (migration 20261229T1648-timelogs).
import type { Generated } from 'kysely';

export interface TimelogsTable {
  id: Generated<number>;
  /** Who spent it; null once the user is deleted. */
  user_id: number | null;
  /** Exactly one of issue_id and merge_request_id is set. */
  issue_id: number | null;
  merge_request_id: number | null;
  /** Seconds; negative to subtract. */
  time_spent: number;
  summary: string | null;
  spent_at: number;
  created_at: number;
}

export interface TimelogsTables {
  timelogs: TimelogsTable;
}
