import type { Generated } from 'kysely';

export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_iid: number | null;
  target_title: string | null;
  push_data: string | null;
  created_at: number;
}

export interface EventsTables {
  events: EventsTable;
}
