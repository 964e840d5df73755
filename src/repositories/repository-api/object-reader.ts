// Reading objects out of a repository through its long-lived `git cat-file --batch` (cat-file.ts, on
// a git thread) rather than a process per object or per request: a branch list or a blame reads
// dozens of commits, and a page reads its refs, commit, tree and blobs, all without starting git.
import { GitError } from '../git.js';
import { gitThreads } from '../git-threads.js';
import type { BatchAnswer } from '../cat-file.js';
import { parseCommitObject, parseTagObject, type CommitObject, type TagObject } from './git-objects.js';

/** The largest object read into memory (blob pages show files past their own, smaller limit as a download). */
export const MAX_OBJECT_BYTES = 100 * 1024 * 1024;

export interface RawObject {
  id: string;
  type: string;
  content: Buffer;
}

/**
 * A name git's batch mode can take: `cat-file --batch` reads one per line, so a name with a line
 * break (or NUL) is refused here rather than read as two requests.
 */
export function isSafeObjectName(name: string): boolean {
  return name !== '' && !/[\n\r\0]/.test(name);
}

/** Each name (an object id, `rev^{commit}`, `rev:path`) read, or null; unsafe names are null without asking git. */
export async function readObjects(repoPath: string, names: readonly string[]): Promise<(RawObject | null)[]> {
  const asked = names.filter(isSafeObjectName);
  if (asked.length === 0) return names.map(() => null);
  const found = await gitThreads().read(repoPath, asked, MAX_OBJECT_BYTES);
  for (const object of found) {
    if (object && 'tooLarge' in object) throw new GitError(`object ${object.id} is ${object.size} bytes, over the ${MAX_OBJECT_BYTES} read at once`, '');
  }
  let next = 0;
  return names.map((name) => (isSafeObjectName(name) ? (found[next++] as RawObject | null) : null));
}

export async function readObject(repoPath: string, name: string): Promise<RawObject | null> {
  return (await readObjects(repoPath, [name]))[0];
}

/**
 * The blob a name gives (`rev:path`), null when it names no blob; over `maxBytes` the reader's
 * TooLarge (its size only: the content is read through and dropped, never held).
 */
export async function readBlobWithin(repoPath: string, name: string, maxBytes: number): Promise<BatchAnswer> {
  if (!isSafeObjectName(name)) return null;
  const [object] = await gitThreads().read(repoPath, [name], maxBytes);
  return object?.type === 'blob' ? object : null;
}

/** The commit a revision names (a sha, branch, tag, `main~2`), or null. */
export async function findCommit(repoPath: string, revision: string): Promise<CommitObject | null> {
  const object = await readObject(repoPath, `${revision}^{commit}`);
  return object && object.type === 'commit' ? parseCommitObject(object.id, object.content) : null;
}

/** Commits by id, in the order asked; ids that are not commits are left out. */
export async function readCommits(repoPath: string, ids: readonly string[]): Promise<Map<string, CommitObject>> {
  const unique = [...new Set(ids)];
  const objects = await readObjects(repoPath, unique);
  const commits = new Map<string, CommitObject>();
  for (const object of objects) if (object?.type === 'commit') commits.set(object.id, parseCommitObject(object.id, object.content));
  return commits;
}

export async function readTag(repoPath: string, id: string): Promise<TagObject | null> {
  const object = await readObject(repoPath, id);
  return object && object.type === 'tag' ? parseTagObject(object.id, object.content) : null;
}
