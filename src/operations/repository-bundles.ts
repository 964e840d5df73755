// Repositories in a backup are git bundles: their refs and objects and nothing else. A restore makes
// each repository anew with `git init --bare` (Kiln's own configuration, no hooks) and fetches the
// bundle into it, with every object checked. Copying a repository directory would carry its
// `config` and `hooks/`, and a restored `[tar "tar.gz"] command = …` ran a command when anyone
// downloaded an archive; a directory that was a symlink was restored as one (issue 33).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { git, gitBytes, initBare, listRefs, runCommand, writeCommitGraph } from '../repositories/api.js';

export interface BundledRepository {
  /** The branch HEAD names (`refs/heads/main`), or null when HEAD is not a branch. */
  head: string | null;
  /** A repository without refs has no bundle (git refuses to write an empty one). */
  empty: boolean;
}

/** What HEAD may name in a backup: a branch with a name git accepts (checked again by check-ref-format). */
const HEAD_REF = /^refs\/heads\/[^\0-\x20\x7f~^:?*[\\]+$/;

export function validHead(head: unknown): head is string {
  return typeof head === 'string' && head.length <= 1024 && HEAD_REF.test(head);
}

/** Writes the bundle of a live repository (ours: its configuration is Kiln's). */
export async function bundleRepository(source: string, bundle: string): Promise<BundledRepository> {
  const symbolic = (await git(source, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')).trim();
  const head = validHead(symbolic) ? symbolic : null;
  const refs = await listRefs(source);
  if (refs.size === 0) return { head, empty: true };
  mkdirSync(dirname(bundle), { recursive: true, mode: 0o700 });
  await bundleRefs(source, refs, head, bundle);
  return { head, empty: false };
}

/**
 * Writes the bundle of `refs` as they were read from `source`, whatever pushes do to it meanwhile.
 * `git bundle create --all` on the live repository reads every ref twice (to walk from it, then to
 * write its line) and leaves out a ref that moved in between: a push at that moment could leave the
 * bundle with HEAD's line and not its branch's, which a restore (fetching `refs/*`) turned into an
 * empty repository. So the bundle comes from a scratch repository that holds the refs read once and
 * borrows `source`'s objects (objects/info/alternates); its refs cannot move.
 */
export async function bundleRefs(source: string, refs: ReadonlyMap<string, string>, head: string | null, bundle: string): Promise<void> {
  const scratch = mkdtempSync(join(dirname(bundle), '.scratch-'));
  try {
    await initBare(scratch, initialBranch(head));
    writeFileSync(join(scratch, 'objects', 'info', 'alternates'), `${resolve(source, 'objects')}\n`);
    await gitBytes(scratch, ['update-ref', '--stdin', '-z'], { input: [...refs].map(([ref, id]) => `create ${ref}\0${id}\0`).join('') });
    await git(scratch, ['bundle', 'create', '--quiet', bundle, '--all']);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The branch a new repository's HEAD names: `head`'s, else main. */
function initialBranch(head: string | null): string {
  return head ? head.slice('refs/heads/'.length) : 'main';
}

/** Makes `destination` a new bare repository holding the bundle's refs and objects, HEAD on `head`. */
export async function restoreBundle(bundle: string | null, destination: string, head: string | null): Promise<void> {
  if (head !== null) await runCommand('git', ['check-ref-format', head]);
  await initBare(destination, initialBranch(head));
  if (bundle === null) return;
  await git(destination, ['bundle', 'verify', '--quiet', bundle]);
  await git(destination, ['-c', 'transfer.fsckObjects=true', 'fetch', '--quiet', '--no-write-fetch-head', bundle, '+refs/*:refs/*']);
  // A bundle carries no commit-graph: written now, the restored repository's history pages walk as
  // fast as before from their first view, not from its next push.
  await writeCommitGraph(destination);
}
