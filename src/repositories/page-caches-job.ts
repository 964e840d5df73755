// After a push, the repository pages' slow answers are computed in the background (issue 35: the tree
// page's last commit per entry and blame, "computed efficiently and cached by commit, not per
// request"), so that the first view after the push reads them instead of walking the history
// (repository-api/page-caches.ts keeps them; docs/decisions.md says why in the database). A push of
// any branch or tag counts; its commit is compared with the ref's previous commit, or, for a new
// branch or a tag, with the default branch's head (most branches start there). For the new commit:
// - the root and every directory that the new commits changed (and each folder above it) get their
//   last commits, from the compared commit's kept answer when the new commit only adds commits on
//   top of it without a merge (walking the new commits only: last-commits.ts, lastCommitsSince), else
//   by a whole walk; at most MAX_DIRECTORIES of them, the shallowest first: a push of a wide tree
//   stays bounded, and a directory past the bound is computed and kept on its first view;
// - every other directory kept at the compared commit is carried over as it is (same answer then);
// - the files the newest pushed commits changed get their blame, a few and not too big ones, and are
//   highlighted once (kept by their blob, for the blob and blame pages of every node).
// A push enqueues one job per branch or tag it changed, MAX_PAGE_CACHES_JOBS_PER_PUSH at most, one of
// them kept for the default branch (a mirror push of a thousand old tags stays bounded: the pages of
// the rest are computed on first view).
// At-least-once: a repeated job finds the rows written and skips them.
import type { Deps } from '../platform/deps.js';
import { findProjectRow } from '../accounts/api.js';
import { readableRepository } from './repository-api/project-repository.js';
import { gitBytes } from './git.js';
import { listTree, entryAt } from './repository-api/git-reads.js';
import { findCommit, readObject } from './repository-api/object-reader.js';
import { isBinary } from './repository-api/files-finder.js';
import { storedLineMarkup } from './pages/file-lines.js';
import { BACKGROUND_HIGHLIGHT_TIMEOUT_MS } from '../platform/web/highlight/highlighter.js';
import { baseName } from './repository-api/tree-entries.js';
import { lastCommitsForTree, lastCommitsSince, linearSince } from './repository-api/last-commits.js';
import { blameAt, carryTrees, highlightStore, keepTree, keptBlame, keptTree, pruneKept } from './repository-api/page-caches.js';

export const PAGE_CACHES_JOB = 'repositories.page_caches';

/** Directories walked per push at most, the shallowest first (a push of a whole tree stays bounded; the rest are walked on their first view). */
export const MAX_DIRECTORIES = 50;
/** Directories carried over from the previous head at most. */
const MAX_CARRIED = 500;
/** Files blamed per push at most, and the largest one blamed (the blame page's first view is what is saved). */
export const MAX_BLAMES = 5;
const MAX_BLAME_BYTES = 1024 * 1024;

/**
 * Jobs one push enqueues at most: the first refs it changed, by name (branches before tags), one of
 * them kept for the default branch. A mirror push of many branches would otherwise leave the default
 * branch, whose pages are the most viewed, to its first view when five branches sort before it.
 */
export const MAX_PAGE_CACHES_JOBS_PER_PUSH = 4;

interface PushJobs {
  taken: number;
  defaultTaken: boolean;
  /** The project's default branch as a ref, asked once a push (the first branch event asks it). */
  defaultRef: Promise<string | null> | null;
}

const jobsByPush = new WeakMap<object, PushJobs>();

/**
 * Whether the push of `tx` (the transaction its ref changes are announced in) may enqueue a job for
 * `ref`; counts it. `defaultRef` names the default branch (`refs/heads/…`), asked at most once a push.
 */
export async function takePageCachesJob(tx: object, ref: string, defaultRef: () => Promise<string | null>): Promise<boolean> {
  let jobs = jobsByPush.get(tx);
  if (!jobs) {
    jobs = { taken: 0, defaultTaken: false, defaultRef: null };
    jobsByPush.set(tx, jobs);
  }
  const isDefault = ref.startsWith('refs/heads/') && ref === (await (jobs.defaultRef ??= defaultRef()));
  if (isDefault) {
    if (jobs.defaultTaken) return false;
    jobs.defaultTaken = true;
  } else if (jobs.taken >= MAX_PAGE_CACHES_JOBS_PER_PUSH - (jobs.defaultTaken ? 0 : 1)) return false;
  jobs.taken += 1;
  return true;
}

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
  // The blame and blob pages show the file highlighted: highlighted now and kept by its blob (in the
  // database), the first view on any node does not wait for it. Nobody waits for this one: a longer
  // deadline than a page's, so that a long file is kept highlighted on a loaded machine too.
  await storedLineMarkup(highlightStore(deps, projectId, entry.id, path), path, blob.content.toString('utf8'), BACKGROUND_HIGHLIGHT_TIMEOUT_MS);
}

/** The commit the pushed one is compared with: the ref's previous commit, else the default branch's head; null when none (or the same). */
async function comparedCommit(repoPath: string, payload: PageCachesPayload, defaultBranch: string, after: string): Promise<string | null> {
  const candidates = [payload.ref.startsWith('refs/heads/') ? payload.before : null, `refs/heads/${defaultBranch}`];
  for (const candidate of candidates) {
    const commit = candidate === null ? null : await findCommit(repoPath, candidate);
    if (commit) return commit.id === after ? null : commit.id;
  }
  return null;
}

export async function pageCachesJob(deps: Deps, payload: PageCachesPayload): Promise<void> {
  const project = await findProjectRow(deps, payload.projectId);
  if (!project || !/^refs\/(heads|tags)\//.test(payload.ref)) return;
  const repoPath = await readableRepository(deps, project);
  if (!repoPath) return;
  // The ref may have moved on and the pushed commit gone: nothing to compute then. A tag is peeled to its commit.
  const pushed = await findCommit(repoPath, payload.after);
  if (!pushed) return;
  const after = pushed.id;
  const projectId = Number(project.id);
  const before = await comparedCommit(repoPath, payload, project.default_branch, after);
  const changed = before ? await pushedPaths(repoPath, before, after) : [];
  const linear = before ? await linearSince(repoPath, before, after) : false;
  const directories = directoriesOf(changed);
  const job = { ...payload, before, after };
  for (const directory of directories.slice(0, MAX_DIRECTORIES)) await keepDirectory(deps, projectId, repoPath, job, directory, linear);
  // A changed directory is never carried (past the bound too: it is walked on its first view).
  if (linear && before) await carryTrees(deps, projectId, before, after, directories, MAX_CARRIED);
  for (const path of changed.slice(0, MAX_BLAMES)) await keepBlame(deps, projectId, repoPath, after, path);
  await pruneKept(deps, projectId);
}
