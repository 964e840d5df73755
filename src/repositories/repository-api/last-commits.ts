// The last commit that changed each entry of a directory (GitLab's tree page "Last commit" column,
// Gitaly's ListLastCommitsForTree), from ONE `git log` walk per tree rather than a process per entry:
// the walk lists, newest first, the commits in the directory's history with the files each changed
// (`--name-only`; `-c` so that a merge names only what differs from every parent, as
// `git log -1 -- <path>` counts a merge; `-t` so that folders are named too, a merge counting for a
// folder whose tree differs from every parent's), and stops as soon as every entry has its commit.
// One case can differ from a walk per entry: a merge that kept one side's version of a file the
// other side had changed, where the per-entry walk follows only the kept side.
// Commits are immutable, so the answer for (commit, directory) never changes: page-caches.ts keeps it
// by commit, and a push's job computes it from the previous head's answer (lastCommitsSince).
import { git, spawnGit } from '../git.js';
import { isAncestor } from './git-reads.js';

export interface TreeLastCommits {
  /** The last commit that changed each entry, by entry name. */
  byEntry: ReadonlyMap<string, string>;
  /** The last commit that changed anything in the directory (the walk's first). */
  latest: string | null;
}

/** Pure: the changed paths of each commit in `git log --format=%x01%H -z --name-only` output. */
export function parseNameOnlyLog(output: string): { id: string; paths: string[] }[] {
  return output
    .split('\x01')
    .filter((chunk) => /^[0-9a-f]{40}/.test(chunk))
    .map((chunk) => ({ id: chunk.slice(0, 40), paths: chunk.slice(40).replace(/^[\0\n]+/, '').split('\0').filter((path) => path !== '') }));
}

/** The entry of `directory` (its first segment below it) that a changed file belongs to. */
function entryOf(directory: string, path: string): string | null {
  const prefix = directory === '' ? '' : `${directory}/`;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash);
}

/**
 * One walk of `git log` over `revisions` (a commit, or a range `new ^old`) limited to `directory`:
 * for each of `wanted` (entry names) the first commit of the walk that changed it, and the walk's
 * first commit. It stops as soon as every entry has its commit.
 */
async function walk(repoPath: string, revisions: string[], directory: string, wanted: ReadonlySet<string>): Promise<TreeLastCommits> {
  const found = new Map<string, string>();
  let latest: string | null = null;
  const args = ['--literal-pathspecs', 'log', '--format=%x01%H', '-z', '--name-only', '-c', '-t', '--no-renames', ...revisions, '--', ...(directory === '' ? [] : [directory])];
  await new Promise<void>((resolve, reject) => {
    const child = spawnGit(repoPath, args);
    let pending = '';
    const take = (text: string) => {
      for (const { id, paths } of parseNameOnlyLog(text)) {
        latest ??= id;
        for (const path of paths) {
          const entry = entryOf(directory, path);
          if (entry !== null && wanted.has(entry) && !found.has(entry)) found.set(entry, id);
        }
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      // Everything before the last record's start is whole; the last may still be arriving.
      const cut = pending.lastIndexOf('\x01');
      if (cut > 0) {
        take(pending.slice(0, cut));
        pending = pending.slice(cut);
      }
      if (found.size === wanted.size) child.kill();
    });
    child.on('error', reject);
    child.on('close', () => {
      if (found.size < wanted.size) take(pending);
      resolve();
    });
  });
  return { byEntry: found, latest };
}

/**
 * The last commit (from `commit` back) that changed each of `names` (entries of `directory`, by name),
 * walked afresh. An entry the walk does not reach (a history cut short) is absent.
 */
export async function lastCommitsForTree(repoPath: string, commit: string, directory: string, names: readonly string[]): Promise<TreeLastCommits> {
  const wanted = new Set(names);
  if (wanted.size === 0) return { byEntry: new Map(), latest: null };
  return walk(repoPath, [commit], directory, wanted);
}

/**
 * The same answer at `after`, from the answer at `before` (`previous`), walking only the commits
 * between them. Only valid when `after` is `before` with commits on top and no merge among them
 * (the caller checks: linearSince): the full walk from `after` then lists those commits first, one
 * by one, and goes on exactly as the walk from `before`, so an entry none of them changed keeps its
 * commit. Null when an entry is in neither walk (the previous answer was cut short): walk afresh.
 */
export async function lastCommitsSince(repoPath: string, previous: TreeLastCommits, before: string, after: string, directory: string, names: readonly string[]): Promise<TreeLastCommits | null> {
  const wanted = new Set(names);
  if (wanted.size === 0) return { byEntry: new Map(), latest: null };
  const recent = await walk(repoPath, [after, `^${before}`], directory, wanted);
  const byEntry = new Map<string, string>();
  for (const name of wanted) {
    const id = recent.byEntry.get(name) ?? previous.byEntry.get(name);
    if (id === undefined) return null;
    byEntry.set(name, id);
  }
  return { byEntry, latest: recent.latest ?? previous.latest };
}

/** True when `after` is `before` with commits on top and no merge among them (lastCommitsSince may be used). */
export async function linearSince(repoPath: string, before: string, after: string): Promise<boolean> {
  if (!(await isAncestor(repoPath, before, after))) return false;
  const merges = await git(repoPath, ['rev-list', '--min-parents=2', '--count', after, `^${before}`]);
  return Number(merges.trim()) === 0;
}
