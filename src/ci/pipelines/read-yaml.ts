// Reading a YAML file of a repository at a commit, bounded: `.gitlab-ci.yml` and the files it includes.
import { gitCall, readBlobWithin } from '../../repositories/api.js';
import { MAX_YAML_BYTES } from '../config/parse-config.js';

/**
 * A YAML file's text at a commit (`.gitlab-ci.yml`, an included file), null when there is none; over
 * the size limit it is not read. Through the repository's long-lived object reader: a pipeline reads
 * its configuration and each include without starting git (two processes a file before).
 */
export async function readYamlAt(repoPath: string, sha: string, path: string): Promise<string | null | { tooBig: true }> {
  const blob = await readBlobWithin(repoPath, `${sha}:${path}`, MAX_YAML_BYTES);
  if (!blob) return null;
  return 'tooLarge' in blob ? { tooBig: true } : blob.content.toString('utf8');
}

/** The paths of a commit's files, null over `max` (then not used) or when the commit is not there. */
export async function treePaths(repoPath: string, sha: string, max: number): Promise<string[] | null> {
  const listing = await gitCall(repoPath, ['ls-tree', '-r', '--name-only', '-z', sha]);
  if (listing.code !== 0) return null;
  const paths = listing.stdout.toString('utf8').split('\0').filter((path) => path !== '');
  return paths.length > max ? null : paths;
}
