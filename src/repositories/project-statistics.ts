// GitLab's ProjectStatistics entity (`GET /projects/:id?statistics=true`, for Reporters and up): the
// repository's commits on its default branch and its size on disk (git count-objects), and the LFS
// content the project links, and its Markdown uploads. Kiln keeps no wiki, artifacts, packages or
// registry for a project: those sizes are 0.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { git } from './git.js';
import { readableRepository } from './repository-api/project-repository.js';
import { projectLfsSize } from './lfs/lfs-objects.js';
import { projectUploadsSize } from '../uploads/api.js';

export interface ProjectStatistics {
  commit_count: number;
  storage_size: number;
  repository_size: number;
  wiki_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
  pipeline_artifacts_size: number;
  packages_size: number;
  snippets_size: number;
  uploads_size: number;
  container_registry_size: number;
}

/** Loose and packed objects, in bytes (count-objects -v counts KiB). */
async function repositorySize(path: string): Promise<number> {
  const counts = await git(path, ['count-objects', '-v']);
  let kib = 0;
  for (const line of counts.split('\n')) {
    const [name, value] = line.split(': ');
    if (name === 'size' || name === 'size-pack') kib += Number(value) || 0;
  }
  return kib * 1024;
}

async function commitCount(path: string): Promise<number> {
  // An empty repository has no HEAD commit to count from.
  const counted = await git(path, ['rev-list', '--count', 'HEAD', '--']).catch(() => '0');
  return Number(counted.trim()) || 0;
}

export async function projectStatistics(deps: Deps, project: ProjectRow): Promise<ProjectStatistics> {
  const path = await readableRepository(deps, project);
  const [commits, repository, lfs, uploads] = await Promise.all([
    path ? commitCount(path) : 0,
    path ? repositorySize(path) : 0,
    projectLfsSize(deps, Number(project.id)),
    projectUploadsSize(deps.db, Number(project.id)),
  ]);
  return {
    commit_count: commits,
    storage_size: repository + lfs + uploads,
    repository_size: repository,
    wiki_size: 0,
    lfs_objects_size: lfs,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: uploads,
    container_registry_size: 0,
  };
}
