// What the repository pages compute once per commit, kept in the database (repository_page_caches;
// docs/decisions.md, "Repository pages keep their answers by commit"): the last commit of every entry
// of a directory (tree page), the blame of a file (blame page), and a file's highlighted lines (blob
// and blame pages, kept by the file's content and path). An answer at a commit never changes, so a row
// is written once (the first writer wins, on any node) and read as it is.
// In front of the table sits a bounded map per process (a pure function of its key: the page's
// later views ask no database). Rows are written by the job a push of a branch or tag enqueues
// (page-caches-job.ts) and by a page that found none; the oldest go once a project has too many.
import type { Deps } from '../../platform/deps.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import { lastCommitsForTree, type TreeLastCommits } from './last-commits.js';
import { blamePorcelain, lastCommitFor } from './git-reads.js';
import { parseBlameRuns } from './blame.js';

/** Rows a project keeps; past it the oldest go (the default branch's recent heads are the newest). */
export const KEPT_ROWS_PER_PROJECT = 1000;
/** A directory with more entries than this is not kept in the database (its row would be too big). */
export const MAX_KEPT_ENTRIES = 5000;

/** A run of lines of a file that one commit last changed. */
export interface BlameRange {
  commitId: string;
  lines: number;
}

interface TreeData {
  latest: string | null;
  commits: string[];
  entries: [string, number][];
}

interface BlameData {
  commits: string[];
  ranges: [number, number][];
}

/** The most characters of highlighted markup a row holds (a 512 KiB text, the most highlighted, makes 1–3 M). */
export const MAX_KEPT_MARKUP_CHARACTERS = 4 * 1024 * 1024;

const trees = new BoundedMap<string, TreeLastCommits>(256);
const blames = new BoundedMap<string, BlameRange[]>(64);
const highlights = new BoundedMap<string, string[]>(16);

/** Pure: a tree answer as stored (each commit id once: a folder's entries share few commits). */
export function encodeTree(answer: TreeLastCommits): string {
  const commits: string[] = [];
  const index = new Map<string, number>();
  const at = (id: string) => {
    let known = index.get(id);
    if (known === undefined) {
      known = commits.push(id) - 1;
      index.set(id, known);
    }
    return known;
  };
  const entries: [string, number][] = [...answer.byEntry].map(([name, id]) => [name, at(id)]);
  return JSON.stringify({ latest: answer.latest, commits, entries } satisfies TreeData);
}

export function decodeTree(data: string): TreeLastCommits {
  const parsed = JSON.parse(data) as TreeData;
  return { latest: parsed.latest, byEntry: new Map(parsed.entries.map(([name, index]) => [name, parsed.commits[index]])) };
}

export function encodeBlame(ranges: readonly BlameRange[]): string {
  const commits: string[] = [];
  const index = new Map<string, number>();
  const encoded = ranges.map((range): [number, number] => {
    let known = index.get(range.commitId);
    if (known === undefined) {
      known = commits.push(range.commitId) - 1;
      index.set(range.commitId, known);
    }
    return [known, range.lines];
  });
  return JSON.stringify({ commits, ranges: encoded } satisfies BlameData);
}

export function decodeBlame(data: string): BlameRange[] {
  const parsed = JSON.parse(data) as BlameData;
  return parsed.ranges.map(([index, lines]) => ({ commitId: parsed.commits[index], lines }));
}

const keyOf = (projectId: number, commit: string, path: string) => `${projectId}\0${commit}\0${path}`;

type Kind = 'tree' | 'blame' | 'highlight';

async function readRow(deps: Deps, projectId: number, commit: string, kind: Kind, path: string): Promise<string | null> {
  const row = await deps.db
    .selectFrom('repository_page_caches')
    .select('data')
    .where('project_id', '=', projectId)
    .where('commit_sha', '=', commit)
    .where('kind', '=', kind)
    .where('path', '=', path)
    .executeTakeFirst();
  return row?.data ?? null;
}

async function writeRow(deps: Deps, projectId: number, commit: string, kind: Kind, path: string, data: string): Promise<void> {
  await deps.db
    .insertInto('repository_page_caches')
    .values({ project_id: projectId, commit_sha: commit, kind, path, data, created_at: deps.clock.now() })
    .onConflict((conflict) => conflict.columns(['project_id', 'commit_sha', 'kind', 'path']).doNothing())
    .execute();
}

/** A kept answer: the process's map, else the row (then remembered in the map), else null. */
async function readKept<T>(deps: Deps, map: BoundedMap<string, T>, kind: Kind, projectId: number, commit: string, path: string, decode: (data: string) => T): Promise<T | null> {
  const key = keyOf(projectId, commit, path);
  const known = map.refresh(key);
  if (known) return known;
  const data = await readRow(deps, projectId, commit, kind, path);
  if (data === null) return null;
  const value = decode(data);
  map.set(key, value);
  return value;
}

/** The kept last commits of `directory`'s entries at `commit` (process, then database), or null. */
export function keptTree(deps: Deps, projectId: number, commit: string, directory: string): Promise<TreeLastCommits | null> {
  return readKept(deps, trees, 'tree', projectId, commit, directory, decodeTree);
}

export async function keepTree(deps: Deps, projectId: number, commit: string, directory: string, answer: TreeLastCommits): Promise<void> {
  trees.set(keyOf(projectId, commit, directory), answer);
  if (answer.byEntry.size <= MAX_KEPT_ENTRIES) await writeRow(deps, projectId, commit, 'tree', directory, encodeTree(answer));
}

/**
 * The kept answers at `before` of the directories not in `changed`, kept for `after` too: a
 * directory no commit between them changed has the same answer at both when `after` is `before`
 * with commits on top and no merge (last-commits.ts, linearSince). At most `limit` rows.
 */
export async function carryTrees(deps: Deps, projectId: number, before: string, after: string, changed: readonly string[], limit: number): Promise<number> {
  // The changed directories are left out here, not in SQL: a push may change thousands of them.
  const skipped = new Set(changed);
  const kept = await deps.db
    .selectFrom('repository_page_caches')
    .select(['path', 'data'])
    .where('project_id', '=', projectId)
    .where('commit_sha', '=', before)
    .where('kind', '=', 'tree')
    .orderBy('id')
    .limit(KEPT_ROWS_PER_PROJECT)
    .execute();
  const rows = kept.filter((row) => !skipped.has(row.path)).slice(0, limit);
  const now = deps.clock.now();
  for (let start = 0; start < rows.length; start += 50) {
    await deps.db
      .insertInto('repository_page_caches')
      .values(rows.slice(start, start + 50).map((row) => ({ project_id: projectId, commit_sha: after, kind: 'tree' as const, path: row.path, data: row.data, created_at: now })))
      .onConflict((conflict) => conflict.columns(['project_id', 'commit_sha', 'kind', 'path']).doNothing())
      .execute();
  }
  return rows.length;
}

/** The kept blame of `path` at `commit`, or null. */
export function keptBlame(deps: Deps, projectId: number, commit: string, path: string): Promise<BlameRange[] | null> {
  return readKept(deps, blames, 'blame', projectId, commit, path, decodeBlame);
}

export async function keepBlame(deps: Deps, projectId: number, commit: string, path: string, ranges: BlameRange[]): Promise<void> {
  blames.set(keyOf(projectId, commit, path), ranges);
  await writeRow(deps, projectId, commit, 'blame', path, encodeBlame(ranges));
}

/**
 * A file's highlighted lines (one HTML string per line), kept by the content's id (its blob, or its
 * Git LFS object) and its path (the name chooses the language): any node's blob and blame pages read
 * what the push job or another node's page highlighted, instead of highlighting it again. Null when
 * none is kept.
 */
export function keptHighlight(deps: Deps, projectId: number, contentId: string, path: string): Promise<string[] | null> {
  return readKept(deps, highlights, 'highlight', projectId, contentId, path, (data) => JSON.parse(data) as string[]);
}

/** Keeps highlighted lines (not past MAX_KEPT_MARKUP_CHARACTERS: those stay with the highlighter's own cache). */
export async function keepHighlight(deps: Deps, projectId: number, contentId: string, path: string, lines: string[]): Promise<void> {
  let characters = 0;
  for (const line of lines) characters += line.length;
  if (characters > MAX_KEPT_MARKUP_CHARACTERS) return;
  highlights.set(keyOf(projectId, contentId, path), lines);
  await writeRow(deps, projectId, contentId, 'highlight', path, JSON.stringify(lines));
}

/** keptHighlight and keepHighlight of one file, as a store of its highlighted lines (pages/file-lines.ts, MarkupStore). */
export function highlightStore(deps: Deps, projectId: number, contentId: string, path: string) {
  return { read: () => keptHighlight(deps, projectId, contentId, path), write: (lines: string[]) => keepHighlight(deps, projectId, contentId, path, lines) };
}

/** Deletes a project's oldest rows past KEPT_ROWS_PER_PROJECT (the newest is the last kept). */
export async function pruneKept(deps: Deps, projectId: number): Promise<void> {
  await deps.db
    .deleteFrom('repository_page_caches')
    .where('project_id', '=', projectId)
    .where('id', '<=', (eb) =>
      eb.selectFrom('repository_page_caches').select('id').where('project_id', '=', projectId).orderBy('id', 'desc').limit(1).offset(KEPT_ROWS_PER_PROJECT),
    )
    .execute();
}

/** Walks under way in this process, by project, commit and directory: a request asking meanwhile joins it. */
const walking = new Map<string, Promise<TreeLastCommits>>();
/** Walks started ahead of their request at most (a crawler opening many cold trees at once): past it, the follow-up request walks. */
export const MAX_WALKS_AHEAD = 4;

function walkAndKeep(deps: Deps, projectId: number, repoPath: string, commit: string, directory: string, names: readonly string[]): Promise<TreeLastCommits> {
  const key = keyOf(projectId, commit, directory);
  const running = walking.get(key);
  if (running) return running;
  const started = (async () => {
    const answer = await lastCommitsForTree(repoPath, commit, directory, names);
    // An answer is right without its row: a failed write costs the next view a walk, not this one.
    await keepTree(deps, projectId, commit, directory, answer).catch((error: unknown) => deps.log.warn({ err: error }, 'keeping last commits failed'));
    return answer;
  })().finally(() => walking.delete(key));
  walking.set(key, started);
  return started;
}

/** The last commits of `directory`'s entries at `commit`: kept, or joined while being walked, or walked now and kept. */
export async function lastCommitsAt(deps: Deps, projectId: number, repoPath: string, commit: string, directory: string, names: readonly string[]): Promise<TreeLastCommits> {
  const kept = await keptTree(deps, projectId, commit, directory);
  if (kept) return kept;
  return walkAndKeep(deps, projectId, repoPath, commit, directory, names);
}

/**
 * Starts the walk of lastCommitsAt without waiting for it (the tree page answers at once and its
 * follow-up request joins the walk), unless MAX_WALKS_AHEAD are under way: then the follow-up walks.
 */
export function startLastCommits(deps: Deps, projectId: number, repoPath: string, commit: string, directory: string, names: readonly string[]): void {
  if (walking.size >= MAX_WALKS_AHEAD && !walking.has(keyOf(projectId, commit, directory))) return;
  walkAndKeep(deps, projectId, repoPath, commit, directory, names).catch((error: unknown) => deps.log.warn({ err: error }, 'walking last commits failed'));
}

/**
 * The last commit (from `commit` back) that changed the file at `path`: its folder's kept answer
 * when there is one (the blob page's "Last changed in" without starting git), else `rev-list -1`.
 */
export async function lastCommitOfFile(deps: Deps, projectId: number, repoPath: string, commit: string, path: string): Promise<string | null> {
  const slash = path.lastIndexOf('/');
  const kept = await keptTree(deps, projectId, commit, slash < 0 ? '' : path.slice(0, slash));
  return kept?.byEntry.get(path.slice(slash + 1)) ?? (await lastCommitFor(repoPath, commit, path));
}

/** Pure: the porcelain blame as runs of lines by commit. */
export function blameRanges(porcelain: string): BlameRange[] {
  return parseBlameRuns(porcelain);
}

/** The blame of `path` at `commit` as runs of lines: kept, or blamed now and kept; null when git has none. */
export async function blameAt(deps: Deps, projectId: number, repoPath: string, commit: string, path: string): Promise<BlameRange[] | null> {
  const kept = await keptBlame(deps, projectId, commit, path);
  if (kept) return kept;
  const output = await blamePorcelain(repoPath, commit, path);
  if (output === null) return null;
  const ranges = blameRanges(output);
  await keepBlame(deps, projectId, commit, path, ranges).catch((error: unknown) => deps.log.warn({ err: error }, 'keeping a blame failed'));
  return ranges;
}
