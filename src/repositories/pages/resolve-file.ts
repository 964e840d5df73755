// The file an address names (`<ref>/<path>` of blob, raw, blame and edit pages): the ref as
// resolve-ref.ts finds it, then the blob at the path; a folder's address is answered by the caller.
// The entry and its content are read through the repository's long-lived `cat-file --batch` in one
// round trip (the folder's tree for the entry's mode, and the object at the path): no git process.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { readObjects } from '../repository-api/object-reader.js';
import { baseName, entryOfTree, type TreeEntry } from '../repository-api/tree-entries.js';
import { resolveRef, type ResolvedRef } from './resolve-ref.js';

export interface ResolvedFile {
  resolved: ResolvedRef;
  entry: TreeEntry;
  content: Buffer;
}

/** The blob at the address, or `{ folder: true }` when the path is a folder; 404 otherwise. */
export async function resolveFile(deps: Deps, access: ProjectAccess, rest: string): Promise<ResolvedFile | { folder: ResolvedRef }> {
  const resolved = await resolveRef(deps, access, rest);
  if (resolved.path === '') return { folder: resolved };
  const id = resolved.commit.id;
  const path = resolved.path;
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? `${id}^{tree}` : `${id}:${path.slice(0, slash)}`;
  const [tree, object] = await readObjects(resolved.repoPath, [folder, `${id}:${path}`]);
  const entry = tree?.type === 'tree' ? entryOfTree(tree.content, baseName(path), tree.id.length / 2, slash < 0 ? '' : path.slice(0, slash + 1)) : null;
  if (entry?.type === 'tree') return { folder: resolved };
  if (entry?.type !== 'blob' || object?.type !== 'blob' || object.id !== entry.id) throw new NotFoundError('File');
  return { resolved, entry, content: object.content };
}
