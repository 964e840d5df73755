// The suggestions of a new (or edited) diff note (GitLab's Suggestions::CreateService): each block
// replaces the lines `new_line - above … new_line + below` of the file at the note's head, whose text
// is kept as from_content (what applying checks and replaces). Only notes on a line of the new file
// suggest (DiffNote#supports_suggestion?: not on a removed line, not on an image).
import type { Executor } from '../../../platform/db/database.js';
import { gitCall } from '../../../repositories/api.js';
import type { Position } from '../position.js';
import { suggestionBlocks } from './suggestion-blocks.js';

export interface NewSuggestion {
  relative_order: number;
  from_content: string;
  to_content: string;
  lines_above: number;
  lines_below: number;
}

/** A file's lines at a commit, each with its line ending, or null when it is not a file there. */
export async function blobLines(repoPath: string, commit: string, path: string): Promise<string[] | null> {
  const outcome = await gitCall(repoPath, ['cat-file', 'blob', `${commit}:${path}`]);
  if (outcome.code !== 0) return null;
  const text = outcome.stdout.toString('utf8');
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

/** The lines `from`…`to` (1-based, inclusive) joined as one text. */
export function linesBetween(lines: string[], from: number, to: number): string {
  return lines.slice(from - 1, to).join('');
}

export async function suggestionsFor(repoPath: string, position: Position | null, body: string): Promise<NewSuggestion[]> {
  if (!position || position.position_type !== 'text' || position.new_line == null || !position.new_path) return [];
  const blocks = suggestionBlocks(body);
  if (blocks.length === 0) return [];
  const lines = await blobLines(repoPath, position.head_sha, position.new_path);
  if (!lines) return [];
  const line = position.new_line;
  return blocks.map((block, index) => {
    const from = Math.max(1, line - block.above);
    const to = Math.max(from, Math.min(lines.length, line + block.below));
    return { relative_order: index, from_content: linesBetween(lines, from, to), to_content: block.text, lines_above: line - from, lines_below: to - line };
  });
}

/** A note's suggestions replaced by these (an edit rebuilds them, as GitLab's Notes::UpdateService does). */
export async function storeSuggestions(trx: Executor, noteId: number, suggestions: NewSuggestion[], now: number): Promise<void> {
  await trx.deleteFrom('suggestions').where('note_id', '=', noteId).where('applied', '=', 0).execute();
  if (suggestions.length === 0) return;
  const applied = await trx.selectFrom('suggestions').select('relative_order').where('note_id', '=', noteId).execute();
  const kept = new Set(applied.map((row) => row.relative_order));
  const rows = suggestions.filter((suggestion) => !kept.has(suggestion.relative_order)).map((suggestion) => ({ note_id: noteId, ...suggestion, created_at: now }));
  if (rows.length) await trx.insertInto('suggestions').values(rows).execute();
}
