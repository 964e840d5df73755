// Git smart HTTP at GitLab's URLs (gitprotocol-http(5)): `/<group full path>.wiki.git/…` for a group's
// wiki repository and `/<namespace>/<project>.git/…` for a project, served by `git http-backend`.
// Order of checks: route shape → credentials → container and read access → push rules → backend.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { ACCESS } from '../../platform/auth/access-levels.js';
import { canReadWithVisibility, groupAccessLevel, projectAccessLevel } from '../../accounts/access.js';
import { findProjectRow } from '../../accounts/lookup.js';
import { ensureRepository } from '../ensure-repository.js';
import { findShard } from '../shards.js';
import { listRefs } from '../git.js';
import { recordPushEvents } from '../record-push-events.js';
import { beginPush, endPush } from '../push-leases.js';
import { authenticateGit, parseBasic } from './authenticate.js';
import { runHttpBackend } from './cgi.js';

/** The text git prints as `remote: …` (lib/gitlab/git_access.rb, ERROR_MESSAGES[:read_only]; spec Errors). */
export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';
const NOT_FOUND_MESSAGE = 'The project you were looking for could not be found or you don\'t have permission to view it.';

export const GIT_URL = /^(?<path>.+?)\.git\/(?<action>info\/refs|git-upload-pack|git-receive-pack)$/;

type Service = 'git-upload-pack' | 'git-receive-pack';

interface Target {
  kind: 'group' | 'project';
  id: number;
  visibility: string;
  readOnly: boolean;
  defaultBranch: string;
  level: number;
}

function text(reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  // A Buffer keeps Fastify from appending a charset: git shows text/plain bodies as `remote: …`.
  return reply.code(status).headers({ 'content-type': 'text/plain', ...headers }).send(Buffer.from(`${message}\n`));
}

function challenge(reply: FastifyReply): FastifyReply {
  return text(reply, 401, 'HTTP Basic: Access denied', { 'www-authenticate': 'Basic realm="Kiln"' });
}

/**
 * The repository path (already decoded by the namespaced dispatcher), or null for anything but plain
 * segments: no empty, dot-leading (`.`, `..`) or unusual segments ever reach a lookup.
 */
export function cleanPath(path: string): string | null {
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment.startsWith('.') || !/^[A-Za-z0-9_.\-+]+$/.test(segment))) return null;
  return path;
}

async function findTarget(deps: Deps, path: string, user: AuthUser | null): Promise<Target | null> {
  const now = deps.clock.now();
  if (path.endsWith('.wiki')) {
    const group = await deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group').where('full_path_lower', '=', path.slice(0, -5).toLowerCase()).executeTakeFirst();
    if (!group) return null;
    const level = await groupAccessLevel(deps.reads, user, group, now);
    return { kind: 'group', id: Number(group.id), visibility: group.visibility, readOnly: group.read_only === 1, defaultBranch: 'main', level };
  }
  const project = await findProjectRow(deps, path);
  if (!project) return null;
  const level = await projectAccessLevel(deps.reads, user, project, now);
  return { kind: 'project', id: Number(project.id), visibility: project.visibility, readOnly: false, defaultBranch: project.default_branch, level };
}

export async function serveGit(deps: Deps, request: FastifyRequest, reply: FastifyReply, match: { path: string; action: string }): Promise<FastifyReply> {
  const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
  let service: Service;
  if (match.action === 'info/refs') {
    const requested = query.get('service');
    // Smart HTTP only: the dumb protocol would serve files without these checks.
    if (request.method !== 'GET' || (requested !== 'git-upload-pack' && requested !== 'git-receive-pack')) return text(reply, 404, '404 Not Found');
    service = requested;
  } else {
    if (request.method !== 'POST') return text(reply, 404, '404 Not Found');
    service = match.action as Service;
  }
  const path = cleanPath(match.path);
  if (!path) return text(reply, 404, '404 Not Found');

  const auth = await authenticateGit(deps, parseBasic(request.headers.authorization));
  if (auth.status === 'denied') return challenge(reply);
  if (auth.status === 'blocked') return text(reply, 403, 'Your account has been blocked.');
  const user = auth.status === 'ok' ? auth.user : null;

  const target = await findTarget(deps, path, user);
  const readable = target !== null && canReadWithVisibility(target.visibility, user, target.level) && (auth.status !== 'ok' || auth.canRead);
  if (!target || !readable) return user ? text(reply, 404, NOT_FOUND_MESSAGE) : challenge(reply);

  const pushing = service === 'git-receive-pack';
  if (pushing) {
    if (!user) return challenge(reply);
    if (target.level < ACCESS.developer || (auth.status === 'ok' && !auth.canWrite)) return text(reply, 403, 'You are not allowed to push code to this project.');
    if (target.readOnly) return text(reply, 403, READ_ONLY_MESSAGE);
  }

  // A push to a group wiki holds a lease that a starting move waits for (push-leases.ts).
  let leaseId: number | null = null;
  if (pushing && match.action === 'git-receive-pack' && target.kind === 'group') {
    const lease = await beginPush(deps, target.id);
    if (lease.readOnly) return text(reply, 403, READ_ONLY_MESSAGE);
    leaseId = lease.leaseId;
  }
  const release = async () => {
    if (leaseId !== null) await endPush(deps, leaseId);
    leaseId = null;
  };

  let repository: { row: { shard: string; disk_path: string }; path: string };
  let before: Map<string, string> | null;
  const recordsEvents = pushing && match.action === 'git-receive-pack' && target.kind === 'project' && user !== null;
  try {
    repository = await ensureRepository(deps, { type: target.kind, id: target.id, defaultBranch: target.defaultBranch });
    before = recordsEvents ? await listRefs(repository.path) : null;
  } catch (error) {
    await release();
    throw error;
  }
  const { row, path: repoPath } = repository;
  const shard = findShard(deps.config.storages, row.shard);
  if (!shard) throw new Error(`storage shard "${row.shard}" is not configured`);

  const finish = async (exitCode: number) => {
    try {
      if (recordsEvents && exitCode === 0 && before && user) {
        await recordPushEvents(deps, { projectId: target.id, authorId: user.id, repoPath, before, after: await listRefs(repoPath) });
      }
    } finally {
      await release();
    }
  };

  reply.hijack();
  const response = await runHttpBackend(
    {
      projectRoot: shard.path,
      pathInfo: `/${row.disk_path}/${match.action}`,
      method: request.method as 'GET' | 'POST',
      queryString: match.action === 'info/refs' ? `service=${service}` : '',
      remoteUser: user?.username ?? null,
      headers: request.headers,
      body: request.method === 'POST' ? request.raw : null,
    },
    finish,
  ).catch((error) => {
    request.log.error({ err: error }, 'git http-backend failed');
    return null;
  });
  const raw = reply.raw;
  if (!response) {
    await release();
    raw.writeHead(500, { 'content-type': 'text/plain' }).end('500 Internal Server Error\n');
    return reply;
  }
  response.body.on('backend-stderr', (stderr: string) => request.log.warn({ stderr }, 'git http-backend reported an error'));
  response.body.on('finish-error', (error: Error) => request.log.error({ err: error }, 'recording push events failed'));
  raw.writeHead(response.status, response.headers);
  response.body.pipe(raw);
  return reply;
}
