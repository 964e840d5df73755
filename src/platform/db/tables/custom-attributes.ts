// Custom attributes of users, groups and projects (migration 20261229T1606-custom-attributes).
import type { Generated } from 'kysely';

export interface CustomAttributesTable {
  id: Generated<number>;
  /** Exactly one of the three owners is set (a check constraint). */
  user_id: number | null;
  group_id: number | null;
  project_id: number | null;
  key: string;
  value: string;
  created_at: number;
  updated_at: number;
}

export interface CustomAttributesTables {
  custom_attributes: CustomAttributesTable;
}
