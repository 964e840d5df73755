// After a push to the default branch, the repository pages' slow answers are computed in the
// background (issue 35: the tree page's last commit per entry and blame, "computed efficiently and
// cached by commit, not per request"), so that the first view after the push reads them instead of
// walking the history (repository-api/page-caches.ts keeps them; docs/decisions.md says why in the
// database). For the new head:
// - every directory that a pushed commit changed (and each folder above it) gets its last commits,
//   from the previous head's kept answer when the push only added commits on top of it without a
//   merge (walking the new commits only: last-commits.ts, lastCommitsSince), else by a whole walk;
// - every other directory kept at the previous head is carried over as it is (same answer then);
// - the files the newest pushed commits changed get their blame, a few and not too big ones, and are
//   highlighted once (the highlighting is kept per process, not in the database).
// At-least-once: a repeated job finds the rows written and skips them.
import type { Deps } from '../platform/deps.js';
import { findProjectRow } from '../accounts/api.js';
import { readableRepository } from './repository-api/project-repository.js';
import { gitBytes } from './git.js';
import { listTree, entryAt } from './repository-api/git-reads.js';
import { readCommits, readObject } from './repository-api/object-reader.js';
import { isBinary } from './repository-api/files-finder.js';
import { highlightText } from '../platform/web/highlight/highlighter.js';
import { baseName } from './repository-api/tree-entries.js';
import { lastCommitsForTree, lastCommitsSince, linearSince } from './repository-api/last-commits.js';
import { blameAt, carryTrees, keepTree, keptBlame, keptTree, pruneKept } from './repository-api/page-caches.js';

export const PAGE_CACHES_JOB = 'repositories.page_caches';

/** Directories walked per push at most, the shallowest first (a push of a whole tree stays bounded). */
export const MAX_DIRECTORIES = 50;
/** Directories carried over from the previous head at most. */
const MAX_CARRIED = 500;
/** Files blamed per push at most, and the largest one blamed (the blame page's first view is what is saved). */
export const MAX_BLAMES = 5;
const MAX_BLAME_BYTES = 1024 * 1024;

export interface PageCachesPayload {
  projectId: number;
  ref: string;
  before: string | null;
  after: string;
}

/** Pure: the directories holding `paths` and every folder above them ('' the root), shallowest first. */
export function directoriesOf(paths: readonly string[]): string[] {
  const found = new Set<string>(['']);
  for (const path of paths) {
    let slash = path.indexOf('/');
    while (slash >= 0) {
      found.add(path.slice(0, slash));
      slash = path.indexOf('/', slash + 1);
    }
  }
  return [...found].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0)));
}

/** The paths the commits of `after` not in `before` changed, newest commit first, each once. */
async function pushedPaths(repoPath: string, before: string, after: string): Promise<string[]> {
  const output = await gitBytes(repoPath, ['log', '--format=', '-z', '--name-only', '--no-renames', after, `^${before}`]);
  const seen = new Set<string>();
  for (const raw of output.toString().split('\0')) {
    const path = raw.replace(/^\n+/, '');
    if (path !== '') seen.add(path);
  }
  return [...seen];
}

async function keepDirectory(deps: Deps, projectId: number, repoPath: string, payload: PageCachesPayload, directory: string, linear: boolean): Promise<void> {
  if (await keptTree(deps, projectId, payload.after, directory)) return;
  const listed = await listTree(repoPath, payload.after, directory, false);
  if (!listed) return;
  const names = listed.map((entry) => baseName(entry.path));
  const previous = linear && payload.before ? await keptTree(deps, projectId, payload.before, directory) : null;
  const answer = (previous && payload.before ? await lastCommitsSince(repoPath, previous, payload.before, payload.after, directory, names) : null) ?? (await lastCommitsForTree(repoPath, payload.after, directory, names));
  await keepTree(deps, projectId, payload.after, directory, answer);
}

async function keepBlame(deps: Deps, projectId: number, repoPath: string, commit: string, path: string): Promise<void> {
  if (await keptBlame(deps, projectId, commit, path)) return;
  const entry = await entryAt(repoPath, commit, path);
  if (entry?.type !== 'blob') return;
  const blob = await readObject(repoPath, entry.id);
  if (!blob || blob.content.length === 0 || blob.content.length > MAX_BLAME_BYTES || isBinary(blob.content)) return;
  await blameAt(deps, projectId, repoPath, commit, path);
  // The blame and blob pages show the file highlighted: highlighting it now fills this process's
  // highlighting cache (keyed by the text), so that the first view on this node does not wait for it.
  await highlightText({ path, text: blob.content.toString('utf8') });
}

export async function pageCachesJob(deps: Deps, payload: PageCachesPayload): Promise<void> {
  const project = await findProjectRow(deps, payload.projectId);
  if (!project || payload.ref !== `refs/heads/${project.default_branch}`) return;
  const repoPath = await readableRepository(deps, project);
  if (!repoPath) return;
  // The branch may have moved on and the pushed commit gone: nothing to compute then.
  if (!(await readCommits(repoPath, [payload.after])).has(payload.after)) return;
  const projectId = Number(project.id);
  const before = payload.before !== null && (await readCommits(repoPath, [payload.before])).has(payload.before) ? payload.before : null;
  const changed = before ? await pushedPaths(repoPath, before, payload.after) : [];
  const linear = before ? await linearSince(repoPath, before, payload.after) : false;
  const directories = directoriesOf(changed);
  for (const directory of directories.slice(0, MAX_DIRECTORIES)) await keepDirectory(deps, projectId, repoPath, { ...payload, before }, directory, linear);
  // Only when every changed directory was walked: a directory past the cap is changed, not carried.
  if (linear && before && directories.length <= MAX_DIRECTORIES) await carryTrees(deps, projectId, before, payload.after, directories, MAX_CARRIED);
  for (const path of changed.slice(0, MAX_BLAMES)) await keepBlame(deps, projectId, repoPath, payload.after, path);
  await pruneKept(deps, projectId);
}
