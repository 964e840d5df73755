// How large an artifact a job may upload (GitLab's Ci::JobArtifact.max_artifact_size): the project's
// `max_artifacts_size` in MB when set, else the instance's limit. Kiln keeps artifacts in its database
// and reads no upload body above the instance's limit, so a larger project setting stops there.
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectSetting } from '../../accounts/api.js';
import { ARTIFACT_LIMIT } from './runner-updates.js';

const MEGABYTE = 1024 * 1024;

export function artifactLimit(project: Pick<ProjectRow, 'settings'>): number {
  const megabytes = projectSetting(project, 'max_artifacts_size');
  return megabytes === null ? ARTIFACT_LIMIT : Math.min(Number(megabytes) * MEGABYTE, ARTIFACT_LIMIT);
}
