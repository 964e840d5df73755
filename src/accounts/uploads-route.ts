// `/uploads/-/system/<project|group|user>/avatar/<id>/<file>`: the avatars in project, group and user
// entities. As GitLab's UploadsController, a project's avatar is for whoever may read the project (a
// group's, the group): public ones for anyone, others for a signed-in browser or a token's user. A
// user's avatar is public, as GitLab serves it (every user entity links it, anonymous answers too).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { authenticate } from '../platform/http/authenticate.js';
import { NotFoundError } from '../platform/errors.js';
import { findGroup, findProject } from './lookup.js';
import { findAvatar, sendAvatar } from './avatars-finder.js';

async function callerOf(deps: Deps, request: FastifyRequest): Promise<Principal | null> {
  const fromToken = await authenticate(deps.auth, request, request.query as Record<string, unknown>).catch(() => null);
  if (fromToken) return fromToken;
  const session = await deps.auth.sessions?.load(request);
  return session?.user ? { user: session.user, scopes: [], via: 'session', tokenId: null } : null;
}

/** The stored avatar when the path names its current file (a replaced one's old URL is gone), else 404. */
function sendStored(reply: FastifyReply, avatar: Awaited<ReturnType<typeof findAvatar>>, filename: string, cacheControl: string) {
  if (!avatar || avatar.filename !== filename) return reply.code(404).type('text/plain').send('404 Not Found');
  return sendAvatar(reply, avatar, cacheControl);
}

export function uploadsRoute(app: FastifyInstance, deps: Deps): void {
  app.get<{ Params: { model: string; id: string; filename: string } }>(
    '/uploads/-/system/:model/avatar/:id/:filename',
    // Decided inside: read_project or read_group on the avatar's owner; users' avatars are public.
    { config: { ability: { instance: 'read_instance' } } },
    async (request, reply) => {
      const { model, id, filename } = request.params;
      const notFound = () => reply.code(404).type('text/plain').send('404 Not Found');
      if (!/^\d+$/.test(id) || (model !== 'project' && model !== 'group' && model !== 'user')) return notFound();
      if (model === 'user') return sendStored(reply, await findAvatar(deps.db, 'User', Number(id)), filename, 'public, max-age=300');
      const principal = await callerOf(deps, request);
      try {
        if (model === 'project') await findProject(deps, principal, id);
        else await findGroup(deps, principal, id);
      } catch (error) {
        if (error instanceof NotFoundError) return notFound();
        throw error;
      }
      return sendStored(reply, await findAvatar(deps.db, model === 'project' ? 'Project' : 'Namespace', Number(id)), filename, 'private, max-age=60');
    },
  );
}
