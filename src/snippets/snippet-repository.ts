// A snippet's git repository kept equal to its files (repositories' snippet-repository.ts does the
// git): after every create and update the files as the database now has them become a commit on
// `main` by whoever made the change; before a clone the same call brings a repository up to date,
// which also makes one for a snippet written before snippets had repositories (docs/decisions.md).
// One write at a time per snippet in this process, each reading the files afresh, so the last commit
// is always of the latest files.
import type { Deps } from '../platform/deps.js';
import { commitSnippetFiles } from '../repositories/api.js';
import { snippetFiles } from './finder.js';

const writing = new Map<number, Promise<unknown>>();

function oneAtATime<T>(snippetId: number, work: () => Promise<T>): Promise<T> {
  const run = (writing.get(snippetId) ?? Promise.resolve()).catch(() => undefined).then(work);
  const settled = run.catch(() => undefined);
  writing.set(snippetId, settled);
  void settled.then(() => {
    if (writing.get(snippetId) === settled) writing.delete(snippetId);
  });
  return run;
}

/** Commit the snippet's current files (nothing when the repository has them already); `byUserId` is the author. */
export function syncSnippetRepository(deps: Deps, snippetId: number, message: string, byUserId: number): Promise<string | null> {
  return oneAtATime(snippetId, async () => {
    const files = (await snippetFiles(deps.db, [snippetId])).get(snippetId) ?? [];
    if (files.length === 0) return null;
    const user = await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', byUserId).executeTakeFirst();
    return commitSnippetFiles(deps, snippetId, {
      files: files.map((file) => ({ path: file.path, content: file.content })),
      message,
      author: { name: user?.name ?? 'Kiln', email: user?.email ?? '' },
      time: Math.floor(deps.clock.now() / 1000),
    });
  });
}
