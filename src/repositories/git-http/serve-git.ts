// Git smart HTTP at GitLab's URLs (gitprotocol-http(5)): `/<group full path>.wiki.git/…` for a group's
// wiki repository and `/<namespace>/<project>.git/…` for a project, served by `git http-backend`.
// Order of checks: route shape → the address's ban → credentials → access (git-access.ts, shared with
// SSH) → the service's setup (git-service.ts) → backend, where receive-pack's hook checks protected
// branches (protected-branches/).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { authenticateGit, parseBasic } from './authenticate.js';
import { decideGitAccess, decideOwnedGitAccess, GIT_MESSAGES, type GitActor } from './git-access.js';
import type { OwnedGitRepository } from './owned-repository.js';

export type { OwnedGitRepository };
import { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from './throttle.js';
import { runHttpBackend, type CgiRequest } from './cgi.js';
import { prepareGitService } from './git-service.js';
import { prepareOwnedGitService } from './owned-service.js';

// A snippet's repository (`snippets/<id>.git`, `<project>/snippets/<id>.git`) is the snippets
// feature's route (serveOwnedGit below), not a project's.
export const GIT_URL = /^(?!(?:.+\/)?snippets\/\d+\.git\/)(?<path>.+?)\.git\/(?<action>info\/refs|git-upload-pack|git-receive-pack)$/;

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

/** The service asked for and who asks, or the reply already sent (a ban, failed credentials). */
async function admit(deps: Deps, request: FastifyRequest, reply: FastifyReply, service: Service): Promise<{ actor: GitActor; pushing: boolean } | FastifyReply> {
  // Rack::Attack's blocklist answers a banned address before anything else (throttle.ts).
  const throttle = await gitAuthThrottle(deps, request.ip);
  if (throttle.banned) return text(reply, 403, 'Forbidden');
  const auth = await authenticateGit(deps, parseBasic(request.headers.authorization));
  if (auth.status === 'denied') await recordGitAuthFailure(deps, request.ip);
  else if (auth.status === 'ok' && auth.actor.kind !== 'anonymous' && throttle.counting) await clearGitAuthFailures(deps, request.ip);
  if (auth.status === 'denied') return challenge(reply);
  if (auth.status === 'token_required') return text(reply, 401, tokenRequiredMessage(deps.config.baseUrl));
  if (auth.status === 'blocked') return text(reply, 403, GIT_MESSAGES.blocked);
  return { actor: auth.actor, pushing: service === 'git-receive-pack' };
}

function cgiRequest(request: FastifyRequest, action: string, service: Service, actor: GitActor): Omit<CgiRequest, 'projectRoot' | 'pathInfo' | 'env'> {
  return {
    method: request.method as 'GET' | 'POST',
    queryString: action === 'info/refs' ? `service=${service}` : '',
    remoteUser: actor.kind === 'user' ? actor.user.username : actor.kind === 'deploy_token' ? actor.username : null,
    headers: request.headers,
    body: request.method === 'POST' ? request.raw : null,
  };
}

/** Git smart HTTP for an OwnedGitRepository: the same credentials and throttle as projects; its owner decides. */
export async function serveOwnedGit(deps: Deps, request: FastifyRequest, reply: FastifyReply, action: string, repository: OwnedGitRepository): Promise<FastifyReply> {
  const service = requestedService(request, action);
  if (!service) return text(reply, 404, '404 Not Found');
  const admitted = await admit(deps, request, reply, service);
  if (!('actor' in admitted)) return admitted;
  const decision = await decideOwnedGitAccess(deps, admitted.actor, admitted.pushing, repository);
  if (!decision.allowed) return decision.challenge ? challenge(reply) : text(reply, decision.status, decision.message);
  const receiving = admitted.pushing && action === 'git-receive-pack';
  const setup = await prepareOwnedGitService(deps, repository, admitted.actor, receiving, (error, what) => request.log.error({ err: error }, what));
  if (!setup.ok) return text(reply, 403, setup.message);
  const prepared = setup.service;
  return relay(request, reply, prepared.release, {
    ...cgiRequest(request, action, service, admitted.actor),
    projectRoot: prepared.shardPath,
    pathInfo: `/${prepared.diskPath}/${action}`,
    env: prepared.env,
    channel: prepared.channel,
  }, prepared.finish);
}

export async function serveGit(deps: Deps, request: FastifyRequest, reply: FastifyReply, match: { path: string; action: string }): Promise<FastifyReply> {
  const service = requestedService(request, match.action);
  const path = cleanPath(match.path);
  if (!service || !path) return text(reply, 404, '404 Not Found');
  const admitted = await admit(deps, request, reply, service);
  if (!('actor' in admitted)) return admitted;
  const { actor, pushing } = admitted;
  const decision = await decideGitAccess(deps, path, actor, pushing);
  if (!decision.allowed) return decision.challenge ? challenge(reply) : text(reply, decision.status, decision.message);

  const receiving = pushing && match.action === 'git-receive-pack';
  const setup = await prepareGitService(deps, decision.target, actor, receiving, (error, what) => request.log.error({ err: error }, what));
  if (!setup.ok) return text(reply, 403, setup.message);
  const prepared = setup.service;
  return relay(request, reply, prepared.release, {
    ...cgiRequest(request, match.action, service, actor),
    projectRoot: prepared.shardPath,
    pathInfo: `/${prepared.diskPath}/${match.action}`,
    env: prepared.env,
    channel: prepared.channel,
  }, prepared.finish);
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
