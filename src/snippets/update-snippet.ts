// Change a snippet (GitLab's Snippets::UpdateService): its title, description, visibility, and its
// files, either with `files` actions or, for a snippet of one file, with `content` and `file_name`.
// The files are rewritten in the same transaction as the row, after a lock on the row (a concurrent
// update waits, then applies its actions to what the first one left); a change of the files is then
// a commit of the snippet's repository.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { BadRequestError, NotFoundError } from '../platform/errors.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import type { SnippetRow } from './finder.js';
import { applyActions, checkTotal, filePath, type FileAction, type SnippetFile } from './snippet-input.js';
import { commitToRepository } from './create-snippet.js';
import { isBinary } from './binary-files.js';

export interface SnippetChanges {
  title?: string;
  description?: string;
  visibility?: SnippetVisibility;
  files?: FileAction[];
  content?: string;
  fileName?: string;
  /** Every file anew (the edit page sends the whole list). */
  replace?: SnippetFile[];
}

function oneFileChange(current: SnippetFile[], content: string | undefined, fileName: string | undefined): SnippetFile[] {
  if (current.length !== 1) throw new BadRequestError('To update Snippets with multiple files, you must use the `files` parameter');
  const path = fileName ? filePath(fileName, 'file_name') : current[0].path;
  // A rename alone keeps the file as it is (a binary file too); new content makes it text.
  return checkTotal([content === undefined ? { ...current[0], path } : { path, content }]);
}

/**
 * The edit page's files with the snippet's binary files kept in their places: the form has only the
 * text files (in their order), so a binary file stays byte for byte as it was.
 */
function keepBinary(current: SnippetFile[], texts: SnippetFile[]): SnippetFile[] {
  const given = [...texts];
  const kept = current.flatMap((file) => (isBinary(file) ? [file] : given.length > 0 ? [given.shift()!] : []));
  return [...kept, ...given];
}

/** `editorId`: who changes it (its repository's commit names them). */
export async function updateSnippet(deps: Deps, snippet: SnippetRow, changes: SnippetChanges, editorId: number): Promise<SnippetRow> {
  if (changes.files && (changes.content !== undefined || changes.fileName !== undefined)) throw new BadRequestError('content, file_name and files are mutually exclusive');
  const filesChange = Boolean(changes.replace || changes.files || changes.content !== undefined || changes.fileName !== undefined);
  const updated = await inTransaction(deps.db, async (trx) => {
    // Taking the row first serialises concurrent updates of one snippet (a no-op write is a row lock on both databases).
    const locked = await trx.updateTable('snippets').set({ updated_at: deps.clock.now() }).where('id', '=', snippet.id).returningAll().executeTakeFirst();
    if (!locked) throw new NotFoundError('Snippet');
    if (filesChange) {
      const rows = await trx.selectFrom('snippet_files').select(['path', 'content', 'encoding']).where('snippet_id', '=', snippet.id).orderBy('position').execute();
      const files = changes.replace ? checkTotal(keepBinary(rows, changes.replace)) : changes.files ? applyActions(rows, changes.files) : oneFileChange(rows, changes.content, changes.fileName);
      await trx.deleteFrom('snippet_files').where('snippet_id', '=', snippet.id).execute();
      await trx.insertInto('snippet_files').values(files.map((file, position) => ({ snippet_id: snippet.id, position, path: file.path, content: file.content, encoding: file.encoding ?? 'text' }))).execute();
    }
    const set = {
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
    };
    if (Object.keys(set).length === 0) return locked;
    return trx.updateTable('snippets').set(set).where('id', '=', snippet.id).returningAll().executeTakeFirstOrThrow();
  });
  if (filesChange) await commitToRepository(deps, updated, 'Update snippet', editorId);
  return updated;
}
