// Copies a bare repository that pushes may change meanwhile, into a whole repository: every ref the
// copy holds points at objects the copy holds. Git only adds objects, and writes a pack before it
// deletes the loose objects or older packs it replaces; so the refs are copied first (the loose refs
// before packed-refs, as `git pack-refs` moves them in that direction), then loose objects, then the
// packs, looking again whenever a pack vanished under us. `git fsck --connectivity-only` proves the
// result; a copy that fails it (a prune raced us) is made again.
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../repositories/api.js';

const ATTEMPTS = 3;

function vanished(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Git's own temporaries and locks: never part of a consistent repository. */
function transient(name: string): boolean {
  return name.endsWith('.lock') || name.startsWith('tmp_') || name.startsWith('incoming-') || name.startsWith('.tmp-');
}

/** Copy a tree, skipping transient entries and files that vanish while we copy. */
async function copyTree(source: string, destination: string, skip: (name: string) => boolean = () => false): Promise<void> {
  let entries;
  try {
    entries = await readdir(source, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return;
    throw error;
  }
  await mkdir(destination, { recursive: true });
  for (const entry of entries) {
    if (transient(entry.name) || skip(entry.name)) continue;
    const from = join(source, entry.name);
    const to = join(destination, entry.name);
    if (entry.isDirectory()) await copyTree(from, to);
    else if (entry.isFile()) await copyFile(from, to).catch((error) => (vanished(error) ? undefined : Promise.reject(error)));
  }
}

async function copyPacks(source: string, destination: string): Promise<void> {
  await mkdir(destination, { recursive: true });
  const copied = new Set<string>();
  for (let round = 0; round < 20; round += 1) {
    let missed = false;
    const names = await readdir(source).catch((error) => (vanished(error) ? [] : Promise.reject(error)));
    for (const name of names) {
      if (copied.has(name) || transient(name)) continue;
      try {
        await copyFile(join(source, name), join(destination, name));
        copied.add(name);
      } catch (error) {
        if (!vanished(error)) throw error;
        missed = true; // repacked into a newer pack: look again
      }
    }
    if (!missed) break;
  }
  // A pack whose index vanished before we reached it (or the reverse) is half a pack: drop it.
  const present = new Set(await readdir(destination));
  for (const name of present) {
    const base = name.replace(/\.(pack|idx|rev|bitmap|keep|promisor|mtimes)$/, '');
    if (!present.has(`${base}.pack`) || !present.has(`${base}.idx`)) await rm(join(destination, name), { force: true });
  }
}

async function copyOnce(source: string, destination: string): Promise<void> {
  await rm(destination, { recursive: true, force: true });
  await mkdir(destination, { recursive: true });
  await copyTree(join(source, 'refs'), join(destination, 'refs'));
  await copyFile(join(source, 'packed-refs'), join(destination, 'packed-refs')).catch((error) => (vanished(error) ? undefined : Promise.reject(error)));
  await copyTree(source, destination, (name) => name === 'refs' || name === 'packed-refs' || name === 'objects');
  await copyTree(join(source, 'objects'), join(destination, 'objects'), (name) => name === 'pack');
  await copyPacks(join(source, 'objects', 'pack'), join(destination, 'objects', 'pack'));
}

export async function copyLiveRepository(source: string, destination: string): Promise<void> {
  if (!(await stat(join(source, 'HEAD')).catch(() => null))) throw new Error(`${source} is not a git repository`);
  let failure: unknown;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    await copyOnce(source, destination);
    try {
      await runCommand('git', ['--git-dir', destination, 'fsck', '--connectivity-only', '--no-dangling', '--no-progress']);
      return;
    } catch (error) {
      failure = error;
    }
  }
  throw new Error(`the copy of ${source} stayed incomplete after ${ATTEMPTS} attempts: ${(failure as Error).message}`);
}
