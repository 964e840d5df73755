// Delete a snippet (GitLab's Snippets::DestroyService); its files and comments go with it.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { SnippetRow } from './finder.js';

export async function deleteSnippet(deps: Deps, snippet: SnippetRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await trx.deleteFrom('notes').where('noteable_type', '=', 'Snippet').where('noteable_id', '=', Number(snippet.id)).execute();
    await trx.deleteFrom('snippet_files').where('snippet_id', '=', snippet.id).execute();
    await trx.deleteFrom('snippets').where('id', '=', snippet.id).execute();
  });
}
