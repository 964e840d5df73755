// Git LFS basic transfer at GitLab's addresses (LfsStorageController): `GET <repo>.git/gitlab-lfs/objects/<oid>`
// streams an object the project may serve, `PUT <repo>.git/gitlab-lfs/objects/<oid>/<size>` stores
// one (its SHA-256 and length checked while it streams to disk) and links it to the project. The same
// credentials and access as the batch API: download for GET, upload for PUT.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { lfsAccess, lfsError } from './lfs-request.js';
import { linkedObjects, linkObject, projectLimitRefusal } from './lfs-objects.js';
import { hasObjectFile, readObject, storeObject, TooLarge } from './object-store.js';

export async function serveDownload(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string, oid: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, false);
  if (!context) return reply;
  const size = (await linkedObjects(deps, Number(context.target.project.id), [oid])).get(oid);
  if (size === undefined || !(await hasObjectFile(deps.config.lfsPath, oid, size))) return lfsError(deps, reply, 404, 'Not found.');
  return reply.code(200).headers({ 'content-type': 'application/octet-stream', 'content-length': String(size) }).send(readObject(deps.config.lfsPath, oid));
}

export async function serveUpload(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string, oid: string, sizeText: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, true);
  if (!context) return reply;
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return lfsError(deps, reply, 400, 'SHA256 or size mismatch');
  if (size > deps.config.lfsMaxObjectBytes) return lfsError(deps, reply, 413, `Size must be at most ${deps.config.lfsMaxObjectBytes} bytes`);
  const projectId = Number(context.target.project.id);
  if (!(await linkedObjects(deps, projectId, [oid])).has(oid)) {
    const refusal = await projectLimitRefusal(deps, projectId, size);
    if (refusal) return lfsError(deps, reply, 406, refusal);
  }
  let result;
  try {
    result = await storeObject(deps.config.lfsPath, oid, size, request.raw);
  } catch (error) {
    if (error instanceof TooLarge) return lfsError(deps, reply, 400, 'SHA256 or size mismatch');
    // The client went away mid-body, or the disk refused: nothing was kept.
    request.log.warn({ err: error }, 'storing an LFS object failed');
    return lfsError(deps, reply, 422, 'Unprocessable entity');
  }
  if (result === 'mismatch') return lfsError(deps, reply, 400, 'SHA256 or size mismatch');
  await linkObject(deps, projectId, oid, size);
  return reply.code(200).header('content-type', 'text/plain').send(Buffer.alloc(0));
}
