// What every Git LFS endpoint does first (GitLab's LfsRequest concern and GitHttpClientController):
// LFS on for the instance, HTTP Basic as for git (a password, a token, a deploy token or an LFS token),
// the address ban of failed authentication, then the git access decision — a download needs what a
// fetch needs, an upload what a push needs — and LFS on for the project. Refusals in GitLab's words:
// an anonymous caller is challenged, a caller who may see the project is told 403 "Access forbidden",
// anyone else 404 "Not found." (never whether the project exists).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { projectLfsEnabled } from '../../accounts/api.js';
import { authenticateGit, parseBasic } from '../git-http/authenticate.js';
import { decideGitAccess, GIT_MESSAGES, type GitActor, type GitTarget } from '../git-http/git-access.js';
import { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from '../git-http/throttle.js';
import { cleanPath, tokenRequiredMessage } from '../git-http/serve-git.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';

export const LFS_CONTENT_TYPE = 'application/vnd.git-lfs+json';

export interface LfsContext {
  actor: GitActor;
  target: GitTarget & { project: ProjectRow };
  /** The request's own Authorization header, handed on in actions when Kiln issues no token. */
  authorization: string | null;
}

export function lfsJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', `${LFS_CONTENT_TYPE}; charset=utf-8`).send(JSON.stringify(body));
}

export function lfsError(deps: Deps, reply: FastifyReply, status: number, message: string): FastifyReply {
  return lfsJson(reply, status, { message, documentation_url: `${deps.config.baseUrl}/help` });
}

function challenge(reply: FastifyReply): FastifyReply {
  return reply
    .code(401)
    .headers({ 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="Kiln"', 'lfs-authenticate': 'Basic realm="Kiln"' })
    .send(Buffer.from('HTTP Basic: Access denied\n'));
}

/** GitLab's answer where access is refused: 403 to a caller who can see the project, else 404. */
async function refusal(deps: Deps, reply: FastifyReply, path: string, actor: GitActor): Promise<FastifyReply> {
  const read = await decideGitAccess(deps, path, actor, false);
  const visible = read.allowed && read.target.kind === 'project' && canOnProject(read.target.subject, 'read_project');
  return visible ? lfsError(deps, reply, 403, 'Access forbidden. Check your access level.') : lfsError(deps, reply, 404, 'Not found.');
}

/**
 * Authenticate and authorise an LFS request on the repository at `rawPath`; null when the reply has
 * been sent (a refusal).
 */
export async function lfsAccess(deps: Deps, request: FastifyRequest, reply: FastifyReply, rawPath: string, upload: boolean): Promise<LfsContext | null> {
  if (!deps.config.lfsEnabled) {
    lfsError(deps, reply, 501, 'Git LFS is not enabled on this GitLab server, contact your admin.');
    return null;
  }
  const path = cleanPath(rawPath);
  // A group wiki has no LFS.
  if (!path || path.endsWith('.wiki')) {
    lfsError(deps, reply, 404, 'Not found.');
    return null;
  }
  const throttle = await gitAuthThrottle(deps, request.ip);
  if (throttle.banned) {
    reply.code(403).header('content-type', 'text/plain').send(Buffer.from('Forbidden\n'));
    return null;
  }
  const auth = await authenticateGit(deps, parseBasic(request.headers.authorization));
  if (auth.status === 'denied') await recordGitAuthFailure(deps, request.ip);
  else if (auth.status === 'ok' && auth.actor.kind !== 'anonymous' && throttle.counting) await clearGitAuthFailures(deps, request.ip);
  if (auth.status === 'denied') {
    challenge(reply);
    return null;
  }
  if (auth.status === 'token_required') {
    reply.code(401).header('content-type', 'text/plain').send(Buffer.from(`${tokenRequiredMessage(deps.config.baseUrl)}\n`));
    return null;
  }
  if (auth.status === 'blocked') {
    lfsError(deps, reply, 403, GIT_MESSAGES.blocked);
    return null;
  }
  const { actor } = auth;
  const decision = await decideGitAccess(deps, path, actor, upload);
  if (!decision.allowed) {
    if (decision.challenge) challenge(reply);
    else await refusal(deps, reply, path, actor);
    return null;
  }
  const { target } = decision;
  if (target.kind !== 'project' || !target.project) {
    lfsError(deps, reply, 404, 'Not found.');
    return null;
  }
  if (!projectLfsEnabled(target.project)) {
    await refusal(deps, reply, path, actor);
    return null;
  }
  return { actor, target: target as LfsContext['target'], authorization: request.headers.authorization ?? null };
}
