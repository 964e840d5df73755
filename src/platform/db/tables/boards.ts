// Issue boards (migration 20261229T0417-boards).
import type { Generated } from 'kysely';

export interface BoardsTable {
  id: Generated<number>;
  /** Exactly one of project_id and group_id is set. */
  project_id: number | null;
  group_id: number | null;
  name: string;
  hide_backlog_list: Generated<number>;
  hide_closed_list: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** A label list of a board; the Open and Closed lists are not stored. */
export interface BoardListsTable {
  id: Generated<number>;
  board_id: number;
  label_id: number;
  /** 0, 1, … in the order the board shows its label lists. */
  position: number;
  created_at: number;
  updated_at: number;
}

export interface BoardsTables {
  boards: BoardsTable;
  board_lists: BoardListsTable;
}
