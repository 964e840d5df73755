// Repositories in a backup are git bundles: their refs and objects and nothing else. A restore makes
// each repository anew with `git init --bare` (Kiln's own configuration, no hooks) and fetches the
// bundle into it, with every object checked. Copying a repository directory would carry its
// `config` and `hooks/`, and a restored `[tar "tar.gz"] command = …` ran a command when anyone
// downloaded an archive; a directory that was a symlink was restored as one (issue 33).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { git, initBare, listRefs, runCommand, writeCommitGraph } from '../repositories/api.js';

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
  const head = (await git(source, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')).trim();
  const refs = await listRefs(source);
  if (refs.size === 0) return { head: validHead(head) ? head : null, empty: true };
  mkdirSync(dirname(bundle), { recursive: true, mode: 0o700 });
  await createBundle(source, bundle);
  return { head: validHead(head) ? head : null, empty: false };
}

/** Attempts at a bundle while pushes keep moving the refs (see createBundle). */
const BUNDLE_ATTEMPTS = 5;

/**
 * `git bundle create --all`: git walks from the refs, then reads each ref again to write its line,
 * leaving out a ref that moved in between. A push to a one-branch repository at that moment leaves
 * none, and git refuses the empty bundle; the next attempt sees the pushed ref and includes it.
 */
async function createBundle(source: string, bundle: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await git(source, ['bundle', 'create', '--quiet', bundle, '--all']);
      return;
    } catch (error) {
      if (attempt >= BUNDLE_ATTEMPTS || !/Refusing to create empty bundle/.test(String(error))) throw error;
    }
  }
}

/** Makes `destination` a new bare repository holding the bundle's refs and objects, HEAD on `head`. */
export async function restoreBundle(bundle: string | null, destination: string, head: string | null): Promise<void> {
  if (head !== null) await runCommand('git', ['check-ref-format', head]);
  await initBare(destination, head ? head.slice('refs/heads/'.length) : 'main');
  if (bundle === null) return;
  await git(destination, ['bundle', 'verify', '--quiet', bundle]);
  await git(destination, ['-c', 'transfer.fsckObjects=true', 'fetch', '--quiet', '--no-write-fetch-head', bundle, '+refs/*:refs/*']);
  // A bundle carries no commit-graph: written now, the restored repository's history pages walk as
  // fast as before from their first view, not from its next push.
  await writeCommitGraph(destination);
}
