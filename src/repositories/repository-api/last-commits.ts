// The last commit that changed each entry of a directory (GitLab's tree page "Last commit" column,
// Gitaly's ListLastCommitsForTree), from ONE `git log` walk per tree rather than a process per entry:
// the walk lists, newest first, the commits in the directory's history with the files each changed
// (`--name-only`; `-c` so that a merge names only what differs from every parent, as
// `git log -1 -- <path>` counts a merge; `-t` so that folders are named too, a merge counting for a
// folder whose tree differs from every parent's), and stops as soon as every entry has its commit.
// One case can differ from a walk per entry: a merge that kept one side's version of a file the
// other side had changed, where the per-entry walk follows only the kept side.
// Commits are immutable, so the answer for (commit, directory) never changes: it is kept in a
// bounded map, a pure function of its key (bounded-map.ts).
import { BoundedMap } from '../../platform/bounded-map.js';
import { spawnGit } from '../git.js';

export interface TreeLastCommits {
  /** The last commit that changed each entry, by entry name. */
  byEntry: ReadonlyMap<string, string>;
  /** The last commit that changed anything in the directory (the walk's first). */
  latest: string | null;
}

const remembered = new BoundedMap<string, TreeLastCommits>(256);

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
 * The last commit (from `commit` back) that changed each of `names` (entries of `directory`, by name).
 * An entry the walk does not reach (a history cut short) is absent.
 */
export async function lastCommitsForTree(repoPath: string, commit: string, directory: string, names: readonly string[]): Promise<TreeLastCommits> {
  const key = `${commit}\0${directory}`;
  const known = remembered.get(key);
  if (known && names.every((name) => known.byEntry.has(name))) return known;
  const wanted = new Set(names);
  const found = new Map<string, string>();
  let latest: string | null = null;
  if (wanted.size === 0) return { byEntry: found, latest };
  const args = ['--literal-pathspecs', 'log', '--format=%x01%H', '-z', '--name-only', '-c', '-t', '--no-renames', commit, '--', ...(directory === '' ? [] : [directory])];
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
  const answer = { byEntry: found, latest };
  remembered.set(key, answer);
  return answer;
}
