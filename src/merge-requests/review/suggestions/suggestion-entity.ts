// GitLab's Suggestion entity (lib/api/entities/suggestion.rb): the lines it replaces around the note's
// current line, what they were and become, and whether it may be applied now (Suggestion#appliable?).
import type { Selectable } from 'kysely';
import type { SuggestionsTable } from '../../../platform/db/tables/review.js';
import type { Position } from '../position.js';

export type SuggestionRow = Selectable<SuggestionsTable>;

export function suggestionEntity(row: SuggestionRow, position: Position | null, context: { active: boolean; mrState: string }) {
  const line = position?.new_line ?? 0;
  const applied = Number(row.applied) === 1;
  const appliable = !applied && Number(row.outdated) === 0 && context.active && context.mrState === 'opened' && row.from_content !== row.to_content;
  return {
    id: Number(row.id),
    from_line: line - Number(row.lines_above),
    to_line: line + Number(row.lines_below),
    appliable,
    applied,
    from_content: row.from_content,
    to_content: row.to_content,
  };
}
