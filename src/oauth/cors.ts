// CORS only on the token, revocation, token info and userinfo endpoints (RFC 9700 §2.6 forbids it on
// the authorization endpoint; GitLab enables it on these, doc/api/oauth2.md). No credentials: a
// browser client authenticates with its own values, never with Kiln's cookies.
import type { FastifyInstance, FastifyReply } from 'fastify';

export function allowCors(app: FastifyInstance, url: string, methods: string[]): void {
  app.options(url, { config: { ability: { credential: 'none' } } }, async (_request, reply) => {
    reply
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '))
      .header('access-control-allow-headers', 'Authorization, Content-Type, Accept')
      .header('access-control-max-age', '7200')
      .code(204)
      .send();
  });
}

/** Set on the actual responses of the CORS-enabled endpoints (a per-route header, no global hook). */
export function corsHeader(reply: FastifyReply): FastifyReply {
  return reply.header('access-control-allow-origin', '*');
}
