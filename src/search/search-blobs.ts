// Blob search in a project, or in every project of a group (and its subgroups) whose code the caller
// may read (download_code; GitLab answers no blobs rather than 403). The default branch unless `ref`
// names another (project searches only).
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess, ProjectRow } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { findProject } from '../accounts/api.js';
import { readableRepository } from '../repositories/api.js';
import { grepBlobs, type FoundBlob } from './grep-blobs.js';

export type ProjectBlob = FoundBlob & { project_id: number };

/** A group search greps at most this many projects (newest first), so one request stays bounded. */
export const MAX_PROJECTS_PER_GROUP_SEARCH = 100;

async function blobsOf(deps: Deps, access: ProjectAccess, term: string, ref?: string): Promise<ProjectBlob[]> {
  if (!canOnProject(access, 'download_code')) return [];
  const path = await readableRepository(deps, access.project);
  if (!path) return [];
  const found = await grepBlobs(path, ref ?? access.project.default_branch, term);
  return found.map((blob) => ({ ...blob, project_id: Number(access.project.id) }));
}

export function projectBlobs(deps: Deps, access: ProjectAccess, term: string, ref?: string): Promise<ProjectBlob[]> {
  return blobsOf(deps, access, term, ref);
}

export async function groupBlobs(deps: Deps, principal: Principal, projects: ProjectRow[], term: string): Promise<ProjectBlob[]> {
  const all: ProjectBlob[] = [];
  for (const project of projects.slice(0, MAX_PROJECTS_PER_GROUP_SEARCH)) {
    const access = await findProject(deps, principal, Number(project.id)).catch(() => null);
    if (access) all.push(...(await blobsOf(deps, access, term)));
  }
  return all;
}
