// The files directly inside one folder of a project's default branch, for features that keep their
// configuration in the repository (description templates under `.gitlab/`). Only the folder's own
// entries are listed, and a file is read by its blob id: no name from a request ever becomes a path,
// so `../` in one cannot leave the folder.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { findCommit, readObject } from './object-reader.js';
import { listTree } from './git-reads.js';
import { readableRepository } from './project-repository.js';
import { baseName } from './tree-entries.js';

export interface FolderFile {
  /** The file's name inside the folder (`Bug.md`). */
  name: string;
  /** Its content as text. */
  read(): Promise<string>;
}

/** The blobs directly in `folder` at the default branch; none without a repository, branch or folder. */
export async function defaultBranchFolder(deps: Deps, project: ProjectRow, folder: string): Promise<FolderFile[]> {
  const repoPath = await readableRepository(deps, project);
  const commit = repoPath && project.default_branch ? await findCommit(repoPath, project.default_branch) : null;
  if (!repoPath || !commit) return [];
  const entries = (await listTree(repoPath, commit.id, folder, false)) ?? [];
  return entries
    .filter((entry) => entry.type === 'blob')
    .map((entry) => ({
      name: baseName(entry.path),
      read: async () => (await readObject(repoPath, entry.id))?.content.toString('utf8') ?? '',
    }));
}
