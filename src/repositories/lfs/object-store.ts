// Git LFS objects on disk, content-addressed: `<KILN_LFS_PATH>/<oid[0..2]>/<oid[2..4]>/<oid[4..]>` (the
// layout GitLab uses), one file per oid for the whole instance however many projects link it. An
// upload is streamed into `tmp/upload/` while its SHA-256 and length are computed, and renamed into
// place only when both match what the client announced: a file under its oid is always that content.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const OID = /^[0-9a-f]{64}$/;

export function objectPath(root: string, oid: string): string {
  if (!OID.test(oid)) throw new Error('not an LFS oid');
  return join(root, oid.slice(0, 2), oid.slice(2, 4), oid.slice(4));
}

/** Whether the object's file is on disk with its size (a row whose file was lost is re-attached by an upload). */
export async function hasObjectFile(root: string, oid: string, size: number): Promise<boolean> {
  try {
    return (await stat(objectPath(root, oid))).size === size;
  } catch {
    return false;
  }
}

export function readObject(root: string, oid: string): ReadStream {
  return createReadStream(objectPath(root, oid));
}

/** Hashes and counts what passes; fails as soon as more than `limit` bytes came. */
class Digesting extends Transform {
  readonly hash = createHash('sha256');
  received = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) return callback(new TooLarge());
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

export class TooLarge extends Error {}

export type StoreResult = 'stored' | 'mismatch';

/**
 * Store `body` as the object `oid` of `size` bytes. `mismatch`: the content was not that (wrong hash or
 * length), and nothing was kept. Throws TooLarge when the body runs past `size`.
 */
export async function storeObject(root: string, oid: string, size: number, body: Readable): Promise<StoreResult> {
  const target = objectPath(root, oid);
  const tmpDir = join(root, 'tmp', 'upload');
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${oid}.${randomBytes(8).toString('hex')}`);
  const digest = new Digesting(size);
  try {
    await pipeline(body, digest, createWriteStream(tmp, { flags: 'wx', mode: 0o640 }));
    if (digest.received !== size || digest.hash.digest('hex') !== oid) return 'mismatch';
    await mkdir(join(target, '..'), { recursive: true });
    // Same oid, same bytes: a concurrent upload of the object renames identical content over it.
    await rename(tmp, target);
    return 'stored';
  } finally {
    await rm(tmp, { force: true });
  }
}
