import type { Generated } from 'kysely';

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: Generated<'opened' | 'closed'>;
  issue_type: Generated<'issue' | 'incident'>;
  confidential: Generated<number>;
  author_id: number;
  closed_by_id: number | null;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface NotesTable {
  id: Generated<number>;
  project_id: number;
  noteable_type: 'Issue' | 'AlertManagement::Alert';
  noteable_id: number;
  author_id: number;
  body: string;
  system: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface IssuesTables {
  issues: IssuesTable;
  notes: NotesTable;
}
