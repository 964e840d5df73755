// A snippet's git repository kept equal to its files (repositories' snippet-repository.ts does the
// git): after every create and update the files as the database now has them become a commit on
// `main` by whoever made the change; before a clone the same call brings a repository up to date,
// which also makes one for a snippet written before snippets had repositories (docs/decisions.md).
// A push goes the other way: once git took it, the files on `main` replace the database's.
// One write at a time per snippet in this process — a push holds its turn from before git runs until
// the database follows it, so no commit of the older files lands in between —, each reading the
// files afresh, so the last commit is always of the latest files.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { commitSnippetFiles, snippetBranchFiles, snippetRepository } from '../repositories/api.js';
import { snippetFiles } from './finder.js';
import { fileBytes } from './binary-files.js';

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

async function commitCurrentFiles(deps: Deps, snippetId: number, message: string, byUserId: number): Promise<string | null> {
  const files = (await snippetFiles(deps.db, [snippetId])).get(snippetId) ?? [];
  if (files.length === 0) return null;
  const user = await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', byUserId).executeTakeFirst();
  return commitSnippetFiles(deps, snippetId, {
    files: files.map((file) => ({ path: file.path, content: fileBytes(file) })),
    message,
    author: { name: user?.name ?? 'Kiln', email: user?.email ?? '' },
    time: Math.floor(deps.clock.now() / 1000),
  });
}

/** Commit the snippet's current files (nothing when the repository has them already); `byUserId` is the author. */
export function syncSnippetRepository(deps: Deps, snippetId: number, message: string, byUserId: number): Promise<string | null> {
  return oneAtATime(snippetId, () => commitCurrentFiles(deps, snippetId, message, byUserId));
}

/**
 * The database's files as `main` has them after a push: files still there keep their place, new
 * ones follow in the repository's order (by path, as GitLab lists a snippet's files).
 */
async function followRepository(deps: Deps, snippetId: number): Promise<void> {
  const { path } = await snippetRepository(deps, snippetId);
  const files = await snippetBranchFiles(path);
  if (!files || files.length === 0) return;
  await inTransaction(deps.db, async (trx) => {
    const locked = await trx.updateTable('snippets').set({ updated_at: deps.clock.now() }).where('id', '=', snippetId).returning('id').executeTakeFirst();
    if (!locked) return;
    const before = await trx.selectFrom('snippet_files').select(['path', 'content', 'encoding']).where('snippet_id', '=', snippetId).orderBy('position').execute();
    const order = new Map(before.map((file, position) => [file.path, position]));
    const kept = files.filter((file) => order.has(file.path)).sort((a, b) => order.get(a.path)! - order.get(b.path)!);
    const ordered = [...kept, ...files.filter((file) => !order.has(file.path))];
    if (ordered.length === before.length && ordered.every((file, index) => file.path === before[index].path && file.content === before[index].content && file.encoding === before[index].encoding)) return;
    await trx.deleteFrom('snippet_files').where('snippet_id', '=', snippetId).execute();
    await trx.insertInto('snippet_files').values(ordered.map((file, position) => ({ snippet_id: snippetId, position, path: file.path, content: file.content, encoding: file.encoding }))).execute();
  });
}

export interface SnippetPushTurn {
  /** After git exited: the database follows `main` when the push succeeded; the turn ends either way. */
  end(succeeded: boolean): Promise<void>;
}

/**
 * Take the snippet's turn for a push (waiting for writes before it): its repository is brought up to
 * date first, so the push meets the latest files, and nothing else writes until `end`.
 */
export async function beginSnippetPush(deps: Deps, snippetId: number, authorId: number): Promise<SnippetPushTurn> {
  let finish!: (succeeded: boolean) => void;
  const finished = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  let started!: (error?: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    started = (error) => (error === undefined ? resolve() : reject(error));
  });
  const turn = oneAtATime(snippetId, async () => {
    try {
      await commitCurrentFiles(deps, snippetId, 'Snippet files', authorId);
    } catch (error) {
      started(error);
      throw error;
    }
    started();
    if (await finished) await followRepository(deps, snippetId);
  });
  // A failure before git ran is `ready`'s to tell; later ones are `end`'s.
  turn.catch(() => undefined);
  await ready;
  return {
    end: async (succeeded) => {
      finish(succeeded);
      await turn;
    },
  };
}
