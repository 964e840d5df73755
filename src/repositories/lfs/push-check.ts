// A push whose new commits hold Git LFS pointers to objects the project does not hold is refused, in
// the pre-receive hook, with GitLab's message (Gitlab::Checks::LfsCheck): the pusher uploads them
// with `git lfs push --all` (git-lfs uploads before pushing, so a normal push never meets it). As
// GitLab, only the first 2,000 objects the new commits bring (rev-list, small blobs only) are looked
// at, so that a huge push is not walked whole; rev-list is stopped once it has listed them.
import { spawn } from 'node:child_process';
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectLfsEnabled } from '../../accounts/api.js';
import { GIT_ENV, gitCall } from '../git.js';
import type { RefUpdate } from '../protected-branches/branch-check.js';
import { quarantineEnv, type Quarantine } from '../protected-branches/check-push.js';
import { linkedObjects } from './lfs-objects.js';
import { MAX_POINTER_BYTES, parseLfsPointer, type LfsPointer } from './pointer.js';

export const LFS_OBJECTS_MISSING = 'LFS objects are missing. Ensure LFS is properly set up or try a manual "git lfs push --all".';

/** GitLab's REV_LIST_OBJECT_LIMIT. */
const OBJECT_LIMIT = 2000;
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The first OBJECT_LIMIT objects reachable from `tips` and from no ref yet, blobs only if small enough to be pointers. */
function newObjects(repoPath: string, env: Record<string, string>, tips: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', repoPath, 'rev-list', '--objects', '--no-object-names', `--filter=blob:limit=${MAX_POINTER_BYTES}`, ...tips, '--not', '--all'], {
      env: { ...GIT_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ids: string[] = [];
    let pending = '';
    let stderr = '';
    let stopped = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line) ids.push(line);
        if (ids.length >= OBJECT_LIMIT) {
          stopped = true;
          child.kill();
          return;
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (stopped || code === 0) return resolve(ids);
      reject(new Error(`git rev-list failed: ${stderr.trim()}`));
    });
  });
}

/** The LFS pointers among `ids` (git cat-file: sizes first, then the content of the small blobs). */
async function pointersAmong(repoPath: string, env: Record<string, string>, ids: string[]): Promise<LfsPointer[]> {
  const checked = await gitCall(repoPath, ['cat-file', '--batch-check'], { env, input: `${ids.join('\n')}\n` });
  const blobs = checked.stdout
    .toString('utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([id, type, size]) => OBJECT_ID.test(id ?? '') && type === 'blob' && Number(size) < MAX_POINTER_BYTES)
    .map(([id]) => id);
  if (!blobs.length) return [];
  const read = await gitCall(repoPath, ['cat-file', '--batch'], { env, input: `${blobs.join('\n')}\n` });
  const output = read.stdout;
  const pointers: LfsPointer[] = [];
  // Each: "<id> blob <size>\n<content>\n".
  for (let at = 0; at < output.length; ) {
    const headerEnd = output.indexOf(0x0a, at);
    if (headerEnd < 0) break;
    const size = Number(output.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
    if (!Number.isSafeInteger(size)) break;
    const pointer = parseLfsPointer(output.subarray(headerEnd + 1, headerEnd + 1 + size));
    if (pointer) pointers.push(pointer);
    at = headerEnd + 1 + size + 1;
  }
  return pointers;
}

/** GitLab's refusal when the push brings pointers to objects the project does not hold; else null. */
export async function checkLfsPointers(deps: Deps, project: ProjectRow, repoPath: string, quarantine: Quarantine, updates: readonly RefUpdate[]): Promise<string | null> {
  if (!deps.config.lfsEnabled || !projectLfsEnabled(project)) return null;
  const tips = [...new Set(updates.map((update) => update.newId))].filter((id) => OBJECT_ID.test(id) && !/^0+$/.test(id));
  if (!tips.length) return null;
  const env = quarantineEnv(quarantine);
  const ids = await newObjects(repoPath, env, tips);
  if (!ids.length) return null;
  const pointers = await pointersAmong(repoPath, env, ids);
  if (!pointers.length) return null;
  const held = await linkedObjects(deps, Number(project.id), pointers.map((pointer) => pointer.oid));
  return pointers.every((pointer) => held.get(pointer.oid) === pointer.size) ? null : LFS_OBJECTS_MISSING;
}
