// Copies a bare repository between shards and proves the copy complete before anyone relies on it:
// `git fsck --connectivity-only` (every object reachable from every ref is present) and an exact
// comparison of the refs and HEAD with the source.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { closeReaders, git, listRefs, runCommand } from './git.js';

/**
 * Copy `source` to `destination` through a temporary sibling and a rename, so a crash never leaves a
 * half-written directory under the final name. Anything already at `destination` is a leftover of an
 * interrupted or failed attempt (the database does not point at it) and is replaced.
 */
export async function copyRepository(source: string, destination: string): Promise<void> {
  await mkdir(dirname(destination), { recursive: true });
  // Temporaries of an attempt killed with -9 (its finally never ran).
  for (const name of await readdir(dirname(destination))) {
    if (name.startsWith(`${basename(destination)}.tmp-`)) await rm(join(dirname(destination), name), { recursive: true, force: true });
  }
  const temporary = `${destination}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await runCommand('cp', ['-a', '--', source, temporary]);
    closeReaders(destination);
    await rm(destination, { recursive: true, force: true });
    await rename(temporary, destination);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

export class VerificationError extends Error {}

export async function verifyCopy(source: string, destination: string): Promise<void> {
  if (!existsSync(destination)) throw new VerificationError('the copy is missing at the destination');
  await git(destination, ['fsck', '--connectivity-only', '--no-dangling', '--no-progress']).catch((error: Error) => {
    throw new VerificationError(`git fsck failed at the destination: ${error.message}`);
  });
  const [before, after] = await Promise.all([listRefs(source), listRefs(destination)]);
  if (before.size !== after.size) throw new VerificationError(`ref count differs: ${before.size} at the source, ${after.size} at the destination`);
  for (const [name, oid] of before) {
    if (after.get(name) !== oid) throw new VerificationError(`ref ${name} differs at the destination`);
  }
  const [headBefore, headAfter] = await Promise.all([git(source, ['symbolic-ref', 'HEAD']).catch(() => ''), git(destination, ['symbolic-ref', 'HEAD']).catch(() => '')]);
  if (headBefore !== headAfter) throw new VerificationError('HEAD differs at the destination');
}

export async function removeRepository(path: string): Promise<void> {
  closeReaders(path);
  await rm(path, { recursive: true, force: true });
}
