// Tables of merge request review (migration 20261228T1439-review); diff notes are rows of `notes`.
import type { Generated } from 'kysely';

export interface SuggestionsTable {
  id: Generated<number>;
  note_id: number;
  relative_order: number;
  from_content: string;
  to_content: string;
  lines_above: Generated<number>;
  lines_below: Generated<number>;
  outdated: Generated<number>;
  applied: Generated<number>;
  commit_id: Generated<string | null>;
  created_at: number;
}

export interface DraftNotesTable {
  id: Generated<number>;
  merge_request_id: number;
  author_id: number;
  note: string;
  discussion_id: string | null;
  commit_id: string | null;
  position: string | null;
  line_code: string | null;
  resolve_discussion: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type AwardableType = 'Issue' | 'MergeRequest' | 'Note';

export interface AwardEmojiTable {
  id: Generated<number>;
  name: string;
  user_id: number;
  awardable_type: AwardableType;
  awardable_id: number;
  created_at: number;
  updated_at: number;
}

export interface ReviewTables {
  suggestions: SuggestionsTable;
  draft_notes: DraftNotesTable;
  award_emoji: AwardEmojiTable;
}
