// The bytes of Markdown uploads on disk: `<KILN_UPLOADS_PATH>/<project id>/<secret>`, one file per
// upload. The file's name is only a column: nothing a client sends becomes part of a path. A whole
// project's uploads are one directory, removed when the project is gone (prune-orphan-uploads.ts).
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SECRET = /^[0-9a-f]{32}$/;

export function projectUploadsDirectory(root: string, projectId: number): string {
  return join(root, String(projectId));
}

export function uploadFilePath(root: string, projectId: number, secret: string): string {
  if (!SECRET.test(secret)) throw new Error('not an upload secret');
  return join(projectUploadsDirectory(root, projectId), secret);
}

/** Written whole under a temporary name, then renamed: a reader never sees half a file. */
export async function writeUploadFile(root: string, projectId: number, secret: string, data: Buffer): Promise<void> {
  const target = uploadFilePath(root, projectId, secret);
  await mkdir(projectUploadsDirectory(root, projectId), { recursive: true, mode: 0o750 });
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { flag: 'wx', mode: 0o640 });
    await rename(temporary, target);
  } finally {
    await rm(temporary, { force: true });
  }
}

export function readUploadFile(root: string, projectId: number, secret: string): ReadStream {
  return createReadStream(uploadFilePath(root, projectId, secret));
}

export async function removeUploadFile(root: string, projectId: number, secret: string): Promise<void> {
  await rm(uploadFilePath(root, projectId, secret), { force: true });
}
