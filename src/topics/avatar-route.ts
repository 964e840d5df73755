// `/uploads/-/system/projects/topic/avatar/<id>/<file>`: a topic's avatar, public as topics are.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { findAvatar, sendAvatar } from '../accounts/api.js';

export function topicAvatarRoute(app: FastifyInstance, deps: Deps): void {
  app.get<{ Params: { id: string; filename: string } }>(
    '/uploads/-/system/projects/topic/avatar/:id/:filename',
    { config: { ability: { instance: 'read_instance' } } },
    async (request, reply) => {
      const { id, filename } = request.params;
      const avatar = /^\d+$/.test(id) ? await findAvatar(deps.db, 'Topic', Number(id)) : undefined;
      if (!avatar || avatar.filename !== filename) return reply.code(404).type('text/plain').send('404 Not Found');
      return sendAvatar(reply, avatar, 'public, max-age=60');
    },
  );
}
