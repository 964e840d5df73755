// An edited diff note's suggestions are read again from its text (GitLab's Notes::UpdateService
// rebuilds them); applied ones stay as they were.
import type { Deps } from '../../../platform/deps.js';
import { inTransaction } from '../../../platform/db/database.js';
import type { NoteRow } from '../../../issues/api.js';
import type { MergeRequestRow } from '../../rows.js';
import { fullProject } from '../../finder.js';
import { readRepository } from '../../mr-repository.js';
import { readPosition } from '../position.js';
import { storeSuggestions, suggestionsFor } from './new-suggestions.js';

export async function refreshSuggestions(deps: Deps, mr: MergeRequestRow, note: NoteRow): Promise<void> {
  if (note.type !== 'DiffNote') return;
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  const repoPath = target ? await readRepository(deps, target) : null;
  if (!repoPath) return;
  const suggestions = await suggestionsFor(repoPath, readPosition(note.position), note.body);
  await inTransaction(deps.db, (trx) => storeSuggestions(trx, Number(note.id), suggestions, deps.clock.now()));
}
