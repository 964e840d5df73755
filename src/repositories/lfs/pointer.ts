// Git LFS pointer files (git-lfs's docs/spec.md): the small text a repository holds in place of an LFS
// object — `version https://git-lfs.github.com/spec/v1`, then sorted `key value` lines among which
// `oid sha256:<64 hex>` and `size <bytes>`. The blob page, `/-/raw/` and the files API (`lfs=true`)
// serve the object a pointer names when the project holds it (GitLab's blob.stored_externally?).
import { open, readFile } from 'node:fs/promises';
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectLfsEnabled } from '../../accounts/api.js';
import { linkedObjects } from './lfs-objects.js';
import { hasObjectFile, objectPath, OID } from './object-store.js';

export interface LfsPointer {
  oid: string;
  size: number;
}

/** The spec: a pointer is under 1024 bytes. */
export const MAX_POINTER_BYTES = 1024;
const VERSIONS = new Set(['https://git-lfs.github.com/spec/v1', 'https://hawser.github.com/spec/v1']);

export function parseLfsPointer(content: Buffer): LfsPointer | null {
  if (content.length >= MAX_POINTER_BYTES || content.length === 0 || content[content.length - 1] !== 0x0a) return null;
  const lines = content.toString('utf8').slice(0, -1).split('\n');
  const [first, ...rest] = lines;
  if (!first.startsWith('version ') || !VERSIONS.has(first.slice('version '.length))) return null;
  let oid: string | null = null;
  let size: number | null = null;
  for (const line of rest) {
    const space = line.indexOf(' ');
    if (space <= 0) return null;
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (!/^[a-z0-9.-]+$/.test(key)) return null;
    if (key === 'oid') {
      if (!value.startsWith('sha256:') || !OID.test(value.slice(7))) return null;
      oid = value.slice(7);
    } else if (key === 'size') {
      if (!/^\d{1,16}$/.test(value)) return null;
      size = Number(value);
    }
  }
  return oid !== null && size !== null && Number.isSafeInteger(size) ? { oid, size } : null;
}

/** The LFS object `content` points to, when it is a pointer the project can serve (its file on disk); else null. */
export async function servedLfsObject(deps: Deps, project: ProjectRow, content: Buffer): Promise<LfsPointer | null> {
  const pointer = parseLfsPointer(content);
  if (!pointer || !deps.config.lfsEnabled || !projectLfsEnabled(project)) return null;
  const size = (await linkedObjects(deps, Number(project.id), [pointer.oid])).get(pointer.oid);
  if (size !== pointer.size || !(await hasObjectFile(deps.config.lfsPath, pointer.oid, size))) return null;
  return pointer;
}

/** The object's first bytes (what its content type is judged on). */
export async function lfsObjectHead(deps: Deps, oid: string, bytes = 8000): Promise<Buffer> {
  const handle = await open(objectPath(deps.config.lfsPath, oid), 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function readLfsObjectWhole(deps: Deps, oid: string): Promise<Buffer> {
  return readFile(objectPath(deps.config.lfsPath, oid));
}
