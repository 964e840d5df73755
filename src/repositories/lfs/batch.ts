// The Git LFS batch API (`POST <repo>.git/info/lfs/objects/batch`, git-lfs's docs/api/batch.md) as
// GitLab answers it (LfsApiController): `{"objects": [...]}` with basic-transfer actions. A download
// lists the objects the project may serve, each with its `download` action and a 404 error for the
// others; an upload asks only for what the project does not hold yet. Actions carry an Authorization
// header: a fresh LFS token for a user or a deploy key, else the request's own (a deploy token).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { decideGitAccess } from '../git-http/git-access.js';
import { lfsAccess, lfsError, lfsJson, type LfsContext } from './lfs-request.js';
import { linkedObjects, projectLimitRefusal } from './lfs-objects.js';
import { hasObjectFile, OID } from './object-store.js';
import { basicAuthorization, issueLfsToken, lfsUsername, LFS_TOKEN_TTL_SECONDS } from '../git-http/lfs-token.js';

interface BatchObject {
  oid: string;
  size: number;
}

type Answer = BatchObject & { authenticated?: true; actions?: Record<string, { href: string; header?: Record<string, string>; expires_in?: number }>; error?: { code: number; message: string } };

const MISSING = "Object does not exist on the server or you don't have permissions to access it";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The Authorization header actions carry (GitLab's lfs_auth_header), or null for an anonymous caller. */
export function actionAuthorization(deps: Deps, context: LfsContext): string | null {
  const { actor } = context;
  if (actor.kind === 'user') return basicAuthorization(lfsUsername({ kind: 'user', id: actor.user.id }, actor.user.username), issueLfsToken(deps, { kind: 'user', id: actor.user.id }));
  if (actor.kind === 'deploy_key') return basicAuthorization(lfsUsername({ kind: 'deploy_key', id: actor.keyId }, null), issueLfsToken(deps, { kind: 'deploy_key', id: actor.keyId }));
  return context.authorization;
}

export function repositoryHttpUrl(deps: Deps, fullPath: string): string {
  return `${deps.config.baseUrl}/${fullPath}.git`;
}

async function downloadAnswers(deps: Deps, context: LfsContext, objects: BatchObject[], authorization: string | null): Promise<Answer[]> {
  const project = context.target.project;
  const linked = await linkedObjects(deps, Number(project.id), objects.map((object) => object.oid));
  // Anyone may download a public project's objects: the client needs no credentials for them.
  const anonymous = await decideGitAccess(deps, project.full_path, { kind: 'anonymous' }, false);
  const base = repositoryHttpUrl(deps, project.full_path);
  return objects.map((object) => {
    const size = linked.get(object.oid);
    if (size === undefined) return { ...object, error: { code: 404, message: MISSING } };
    return {
      oid: object.oid,
      size,
      ...(anonymous.allowed ? { authenticated: true as const } : {}),
      actions: { download: { href: `${base}/gitlab-lfs/objects/${object.oid}`, ...(authorization ? { header: { Authorization: authorization } } : {}), expires_in: LFS_TOKEN_TTL_SECONDS } },
    };
  });
}

async function uploadAnswers(deps: Deps, context: LfsContext, objects: BatchObject[], authorization: string | null): Promise<Answer[]> {
  const project = context.target.project;
  const linked = await linkedObjects(deps, Number(project.id), objects.map((object) => object.oid));
  const base = repositoryHttpUrl(deps, project.full_path);
  const answers: Answer[] = [];
  for (const object of objects) {
    if (object.size > deps.config.lfsMaxObjectBytes) {
      answers.push({ ...object, error: { code: 422, message: `Size must be at most ${deps.config.lfsMaxObjectBytes} bytes` } });
      continue;
    }
    // Held already, with its file: nothing to send (a row whose file was lost asks for it again).
    if (linked.get(object.oid) === object.size && (await hasObjectFile(deps.config.lfsPath, object.oid, object.size))) {
      answers.push(object);
      continue;
    }
    const header: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
    if (authorization) header.Authorization = authorization;
    answers.push({ ...object, actions: { upload: { href: `${base}/gitlab-lfs/objects/${object.oid}/${object.size}`, header, expires_in: LFS_TOKEN_TTL_SECONDS } } });
  }
  return answers;
}

/** The objects of the request, or a message for the first thing wrong with them. */
function readObjects(value: unknown): BatchObject[] | string {
  if (!Array.isArray(value)) return 'objects is missing or not an array';
  const objects: BatchObject[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.oid !== 'string' || !OID.test(item.oid) || typeof item.size !== 'number' || !Number.isSafeInteger(item.size) || item.size < 0) {
      return 'each object needs an oid (64 lower-case hex digits) and a size (a whole number of bytes)';
    }
    objects.push({ oid: item.oid, size: item.size });
  }
  return objects;
}

export async function serveBatch(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
  const body: unknown = request.body;
  const operation = isObject(body) ? body.operation : undefined;
  if (operation !== 'download' && operation !== 'upload') {
    // Refused before access is decided only in what it says: authentication still comes first.
    const context = await lfsAccess(deps, request, reply, path, false);
    return context ? lfsError(deps, reply, 422, 'operation must be download or upload') : reply;
  }
  const context = await lfsAccess(deps, request, reply, path, operation === 'upload');
  if (!context) return reply;
  const objects = readObjects(isObject(body) ? body.objects : undefined);
  if (typeof objects === 'string') return lfsError(deps, reply, 422, objects);
  if (objects.length === 0) return lfsError(deps, reply, 404, 'Not found.');
  if (isObject(body) && body.hash_algo !== undefined && body.hash_algo !== 'sha256') {
    return lfsJson(reply, 200, { objects: objects.map((object) => ({ ...object, error: { code: 409, message: 'Unsupported hash algorithm' } })) });
  }
  const authorization = actionAuthorization(deps, context);
  const answers = operation === 'download' ? await downloadAnswers(deps, context, objects, authorization) : await uploadAnswers(deps, context, objects, authorization);
  if (operation === 'upload') {
    // What would be sent must fit in the project's limit: the whole request is refused, as GitLab's 406.
    const adding = answers.reduce((sum, answer) => sum + (answer.actions ? answer.size : 0), 0);
    const refusal = await projectLimitRefusal(deps, Number(context.target.project.id), adding);
    if (refusal) return lfsError(deps, reply, 406, refusal);
  }
  return lfsJson(reply, 200, { objects: answers });
}
