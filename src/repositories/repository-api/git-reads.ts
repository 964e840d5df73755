// The git plumbing behind the read endpoints. Revisions from clients are passed after
// `--end-of-options` and paths after `--` with literal pathspecs, so neither is read as an option
// or a glob.
import { gitBytes, gitCall } from '../git.js';
import { parseLsTree, type TreeEntry } from './tree-entries.js';
import { fileDiffs, parseNumstat, type FileDiff } from './diffs.js';
import type { CommitStats } from './entities.js';

/** git's empty tree: the "parent" a root commit is compared with. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const LITERAL = ['--literal-pathspecs'];

/** Entries of the tree at `path` in `commit`, or null when that is not a tree. */
export async function listTree(repoPath: string, commit: string, path: string, recursive: boolean): Promise<TreeEntry[] | null> {
  const target = path === '' ? `${commit}^{tree}` : `${commit}:${path}`;
  const outcome = await gitCall(repoPath, ['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), '--end-of-options', target]);
  if (outcome.code !== 0) return null;
  return parseLsTree(outcome.stdout, path === '' ? '' : `${path}/`);
}

/** The entry at `path` in `commit` (its mode, type and id), or null. */
export async function entryAt(repoPath: string, commit: string, path: string): Promise<TreeEntry | null> {
  const outcome = await gitCall(repoPath, [...LITERAL, 'ls-tree', '-z', '--full-tree', commit, '--', path]);
  if (outcome.code !== 0) return null;
  return parseLsTree(outcome.stdout).find((entry) => entry.path === path) ?? null;
}

/** Every file of a commit's tree (blobs and submodules), by path. */
export async function filesOf(repoPath: string, commit: string): Promise<Map<string, TreeEntry>> {
  const output = await gitBytes(repoPath, ['ls-tree', '-z', '-r', '--full-tree', commit]);
  return new Map(parseLsTree(output).map((entry) => [entry.path, entry]));
}

/** The last commit reachable from `commit` that changed `path` (GitLab's last_commit_id), or null. */
export async function lastCommitFor(repoPath: string, commit: string, path: string): Promise<string | null> {
  const outcome = await gitCall(repoPath, [...LITERAL, 'rev-list', '-1', commit, '--', path]);
  const id = outcome.stdout.toString().trim();
  return outcome.code === 0 && id !== '' ? id : null;
}

export interface RevListOptions {
  revisions: string[];
  all?: boolean;
  path?: string;
  since?: Date;
  until?: Date;
  author?: string;
  firstParent?: boolean;
  topoOrder?: boolean;
  reverse?: boolean;
  skip?: number;
  maxCount?: number;
  noMerges?: boolean;
}

/** Commit ids in log order; an unknown revision lists nothing, as Gitaly's FindCommits does. */
export async function revList(repoPath: string, options: RevListOptions): Promise<string[]> {
  const args = [...LITERAL, 'rev-list'];
  if (options.maxCount !== undefined) args.push(`--max-count=${options.maxCount}`);
  if (options.skip) args.push(`--skip=${options.skip}`);
  if (options.since) args.push(`--since=@${Math.floor(options.since.getTime() / 1000)}`);
  if (options.until) args.push(`--until=@${Math.floor(options.until.getTime() / 1000)}`);
  if (options.author) args.push(`--author=${options.author}`);
  if (options.firstParent) args.push('--first-parent');
  if (options.topoOrder) args.push('--topo-order');
  if (options.reverse) args.push('--reverse');
  if (options.noMerges) args.push('--no-merges');
  if (options.all) args.push('--all');
  args.push('--end-of-options', ...options.revisions, '--');
  if (options.path) args.push(options.path);
  const outcome = await gitCall(repoPath, args);
  if (outcome.code !== 0) return [];
  return outcome.stdout.toString().split('\n').filter((line) => line !== '');
}

const DIFF_OPTIONS = ['--no-ext-diff', '--no-color', '--find-renames', '--full-index', '--submodule=short'];

/**
 * The diff from `from` (a commit or the empty tree) to `to`, as GitLab's Diff entities; only of
 * `paths` when given (both sides of a rename must be named for git to find it).
 */
export async function diffBetween(repoPath: string, from: string, to: string, unidiff = false, paths: string[] = []): Promise<FileDiff[]> {
  const only = paths.length ? ['--', ...paths] : [];
  const literal = paths.length ? LITERAL : [];
  const [raw, patch] = await Promise.all([
    gitBytes(repoPath, [...literal, 'diff-tree', '-r', '-z', '--raw', ...DIFF_OPTIONS, from, to, ...only]),
    gitBytes(repoPath, [...literal, 'diff-tree', '-r', '-p', ...DIFF_OPTIONS, from, to, ...only]),
  ]);
  return fileDiffs(raw.toString(), patch.toString(), unidiff);
}

/** The diff a commit introduces: against its first parent, or the empty tree for a root commit. */
export function commitDiff(repoPath: string, commit: { id: string; parents: string[] }, unidiff = false): Promise<FileDiff[]> {
  return diffBetween(repoPath, commit.parents[0] ?? EMPTY_TREE, commit.id, unidiff);
}

/** Lines added and removed by a commit against its first parent (Gitaly's CommitStats). */
export async function commitStats(repoPath: string, commit: { id: string; parents: string[] }): Promise<CommitStats> {
  const output = await gitBytes(repoPath, ['diff-tree', '-r', '-z', '--numstat', '--find-renames', commit.parents[0] ?? EMPTY_TREE, commit.id]);
  return parseNumstat(output.toString());
}

/** Full ref names under `prefixes` that contain `commit`. */
export async function refsContaining(repoPath: string, commit: string, prefixes: string[]): Promise<string[]> {
  const output = await gitBytes(repoPath, ['for-each-ref', `--contains=${commit}`, '--format=%(refname)', ...prefixes]);
  return output.toString().split('\n').filter((line) => line !== '');
}

/** Full branch ref names whose tips `commit` contains (merged into it). */
export async function branchesMergedInto(repoPath: string, commit: string): Promise<Set<string>> {
  const output = await gitBytes(repoPath, ['for-each-ref', `--merged=${commit}`, '--format=%(refname)', 'refs/heads/']);
  return new Set(output.toString().split('\n').filter((line) => line !== ''));
}

/** `git merge-base --is-ancestor`: exit 0 yes, 1 no. */
export async function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  const outcome = await gitCall(repoPath, ['merge-base', '--is-ancestor', ancestor, descendant]);
  if (outcome.code > 1) throw new Error(`git merge-base --is-ancestor failed: ${outcome.stderr.trim()}`);
  return outcome.code === 0;
}

/** The best common ancestor of the commits, or null. */
export async function mergeBase(repoPath: string, commits: string[]): Promise<string | null> {
  const outcome = await gitCall(repoPath, ['merge-base', ...commits]);
  const id = outcome.stdout.toString().trim();
  return outcome.code === 0 && id !== '' ? id : null;
}

/** `git blame --porcelain` of a file at a commit, lines `start`…`end` when given. */
export async function blamePorcelain(repoPath: string, commit: string, path: string, range?: { start: number; end: number }): Promise<string | null> {
  const args = ['blame', '--porcelain', ...(range ? [`-L${range.start},${range.end}`] : []), commit, '--', path];
  const outcome = await gitCall(repoPath, args);
  return outcome.code === 0 ? outcome.stdout.toString() : null;
}

/** Commits of `left` not in `right` and of `right` not in `left` (`rev-list --left-right --count`). */
export async function aheadBehind(repoPath: string, left: string, right: string): Promise<{ behind: number; ahead: number } | null> {
  const outcome = await gitCall(repoPath, ['rev-list', '--left-right', '--count', `${left}...${right}`]);
  const match = /^(\d+)\s+(\d+)/.exec(outcome.stdout.toString());
  return outcome.code === 0 && match ? { behind: Number(match[1]), ahead: Number(match[2]) } : null;
}
