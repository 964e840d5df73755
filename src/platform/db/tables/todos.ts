// Tables of the to-dos feature (migration 20261229T0007-todos).
import type { Generated } from 'kysely';

/** GitLab's Todo action names (app/models/todo.rb) that Kiln creates. */
export type TodoAction = 'assigned' | 'mentioned' | 'directly_addressed' | 'review_requested' | 'marked';
export type TodoTargetType = 'Issue' | 'MergeRequest';

export interface TodosTable {
  id: Generated<number>;
  user_id: number;
  project_id: number | null;
  author_id: number;
  target_type: TodoTargetType;
  target_id: number;
  action: TodoAction;
  note_id: number | null;
  state: Generated<'pending' | 'done'>;
  created_at: number;
  updated_at: number;
}

export interface TodosTables {
  todos: TodosTable;
}
