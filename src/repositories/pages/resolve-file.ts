// The file an address names (`<ref>/<path>` of blob, raw, blame and edit pages): the ref as
// resolve-ref.ts finds it, then the blob at the path; a folder's address is answered by the caller.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { entryAt } from '../repository-api/git-reads.js';
import { readObject } from '../repository-api/object-reader.js';
import type { TreeEntry } from '../repository-api/tree-entries.js';
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
  const entry = await entryAt(resolved.repoPath, resolved.commit.id, resolved.path);
  if (entry?.type === 'tree') return { folder: resolved };
  const blob = entry?.type === 'blob' ? await readObject(resolved.repoPath, entry.id) : null;
  if (!entry || !blob) throw new NotFoundError('File');
  return { resolved, entry, content: blob.content };
}
