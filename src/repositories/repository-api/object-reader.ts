// Reading objects out of a repository in one `git cat-file --batch` per request rather than one
// process per object: a branch list or a blame reads dozens of commits.
import { gitBytes } from '../git.js';
import { parseCommitObject, parseTagObject, type CommitObject, type TagObject } from './git-objects.js';

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

/** Pure: the objects of a `cat-file --batch` answer, `null` for each missing or ambiguous name. */
export function parseBatch(output: Buffer, count: number): (RawObject | null)[] {
  const objects: (RawObject | null)[] = [];
  let offset = 0;
  while (objects.length < count && offset < output.length) {
    const newline = output.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = output.subarray(offset, newline).toString('utf8').split(' ');
    offset = newline + 1;
    if (header.length !== 3 || !/^\d+$/.test(header[2])) {
      objects.push(null);
      continue;
    }
    const size = Number(header[2]);
    objects.push({ id: header[0], type: header[1], content: output.subarray(offset, offset + size) });
    offset += size + 1;
  }
  while (objects.length < count) objects.push(null);
  return objects;
}

/** Each name (an object id, `rev^{commit}`, `rev:path`) read, or null; unsafe names are null without asking git. */
export async function readObjects(repoPath: string, names: readonly string[]): Promise<(RawObject | null)[]> {
  const asked = names.filter(isSafeObjectName);
  if (asked.length === 0) return names.map(() => null);
  const output = await gitBytes(repoPath, ['cat-file', '--batch'], { input: asked.map((name) => `${name}\n`).join('') });
  const found = parseBatch(output, asked.length);
  let next = 0;
  return names.map((name) => (isSafeObjectName(name) ? found[next++] : null));
}

export async function readObject(repoPath: string, name: string): Promise<RawObject | null> {
  return (await readObjects(repoPath, [name]))[0];
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
