// Git smart HTTP at GitLab's URLs (gitprotocol-http(5)): `/<group full path>.wiki.git/…` for a group's
// wiki repository and `/<namespace>/<project>.git/…` for a project, served by `git http-backend`.
// Order of checks: route shape → the address's ban → credentials → abilities (git-access.ts) → push
// rules → backend, where receive-pack's hook checks protected branches (protected-branches/).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { ensureRepository } from '../ensure-repository.js';
import { findShard } from '../shards.js';
import { listRefs } from '../git.js';
import { beginPush, endPush } from '../push-leases.js';
import { authenticateGit, parseBasic } from './authenticate.js';
import { decideGitAccess } from './git-access.js';
import { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from './throttle.js';
import { runHttpBackend, type CgiRequest } from './cgi.js';
import { afterPush, pushHooks } from './push-hooks.js';

/** The text git prints as `remote: …` (lib/gitlab/git_access.rb, ERROR_MESSAGES[:read_only]; spec Errors). */
export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';

export const GIT_URL = /^(?<path>.+?)\.git\/(?<action>info\/refs|git-upload-pack|git-receive-pack)$/;

type Service = 'git-upload-pack' | 'git-receive-pack';

function text(reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  // A Buffer keeps Fastify from appending a charset: git shows text/plain bodies as `remote: …`.
  return reply.code(status).headers({ 'content-type': 'text/plain', ...headers }).send(Buffer.from(`${message}\n`));
}

function challenge(reply: FastifyReply): FastifyReply {
  return text(reply, 401, 'HTTP Basic: Access denied', { 'www-authenticate': 'Basic realm="Kiln"' });
}

/**
 * GitLab's answer to a password where a token is required (two-factor authentication): its
 * render_missing_personal_access_token in git_http_client_controller.rb, the wording of GitLab 14.
 * No challenge: the password was right, asking for it again would not help.
 */
export function tokenRequiredMessage(baseUrl: string): string {
  return [
    'HTTP Basic: Access denied',
    "You must use a personal access token with 'read_repository' or 'write_repository' scope for Git over HTTP.",
    `You can generate one at ${baseUrl}/profile/personal_access_tokens`,
  ].join('\n');
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

function requestedService(request: FastifyRequest, action: string): Service | null {
  if (action === 'info/refs') {
    const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
    const requested = query.get('service');
    // Smart HTTP only: the dumb protocol would serve files without these checks.
    if (request.method !== 'GET' || (requested !== 'git-upload-pack' && requested !== 'git-receive-pack')) return null;
    return requested;
  }
  return request.method === 'POST' ? (action as Service) : null;
}

export async function serveGit(deps: Deps, request: FastifyRequest, reply: FastifyReply, match: { path: string; action: string }): Promise<FastifyReply> {
  const service = requestedService(request, match.action);
  const path = cleanPath(match.path);
  if (!service || !path) return text(reply, 404, '404 Not Found');

  // Rack::Attack's blocklist answers a banned address before anything else (throttle.ts).
  const throttle = await gitAuthThrottle(deps, request.ip);
  if (throttle.banned) return text(reply, 403, 'Forbidden');
  const auth = await authenticateGit(deps, parseBasic(request.headers.authorization));
  if (auth.status === 'denied') await recordGitAuthFailure(deps, request.ip);
  else if (auth.status === 'ok' && throttle.counting) await clearGitAuthFailures(deps, request.ip);
  if (auth.status === 'denied') return challenge(reply);
  if (auth.status === 'token_required') return text(reply, 401, tokenRequiredMessage(deps.config.baseUrl));
  if (auth.status === 'blocked') return text(reply, 403, 'Your account has been blocked.');
  const user = auth.status === 'ok' ? auth.user : null;

  const pushing = service === 'git-receive-pack';
  const decision = await decideGitAccess(deps, path, auth, pushing);
  if (!decision.allowed) return decision.challenge ? challenge(reply) : text(reply, decision.status, decision.message);
  const { target } = decision;
  if (pushing && target.readOnly) return text(reply, 403, READ_ONLY_MESSAGE);

  const receiving = pushing && match.action === 'git-receive-pack';
  // A push to a group wiki holds a lease that a starting move waits for (push-leases.ts).
  let leaseId: number | null = null;
  if (receiving && target.kind === 'group') {
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
  const projectPush = receiving && target.kind === 'project' && user !== null ? { project: target.project!, user } : null;
  let hooks: Pick<CgiRequest, 'env' | 'channel'> = {};
  try {
    repository = await ensureRepository(deps, { type: target.kind, id: target.id, defaultBranch: target.defaultBranch });
    before = projectPush ? await listRefs(repository.path) : null;
    if (projectPush && before) hooks = await pushHooks(deps, request, { ...projectPush, repoPath: repository.path, before });
  } catch (error) {
    await release();
    throw error;
  }
  const { row, path: repoPath } = repository;
  const shard = findShard(deps.config.storages, row.shard);
  if (!shard) throw new Error(`storage shard "${row.shard}" is not configured`);

  const finish = async (exitCode: number) => {
    try {
      if (projectPush && exitCode === 0 && before) await afterPush(deps, { ...projectPush, repoPath, before });
    } finally {
      await release();
    }
  };

  return relay(request, reply, release, {
    projectRoot: shard.path,
    pathInfo: `/${row.disk_path}/${match.action}`,
    method: request.method as 'GET' | 'POST',
    queryString: match.action === 'info/refs' ? `service=${service}` : '',
    remoteUser: user?.username ?? null,
    headers: request.headers,
    body: request.method === 'POST' ? request.raw : null,
    ...hooks,
  }, finish);
}

/** Hand the request to git http-backend and stream its answer back. */
async function relay(request: FastifyRequest, reply: FastifyReply, release: () => Promise<void>, cgi: CgiRequest, finish: (exitCode: number) => Promise<void>): Promise<FastifyReply> {
  reply.hijack();
  const response = await runHttpBackend(cgi, finish).catch((error) => {
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
