// The site's 404 for paths no route takes: the layout's page for browsers, the short plain answers
// that git clients and alert senders have always had for theirs.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { html } from './html.js';
import { renderPage } from './page-route.js';

// Git's smart HTTP, LFS and alert endpoints are read by programs, not people.
const MACHINE_PATH = /\.git(?:\/|$|\?)|\/alerts\/notify(?:\/|\.json)|^\/-\/(?:health|liveness|readiness|metrics)/;

export async function answerNotFound(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (MACHINE_PATH.test(request.url)) return reply.code(404).type('text/plain').send('404 Not Found');
  // The user menu when a session is there; a broken or missing one is no reason not to answer.
  const session = await deps.auth.sessions?.load(request).catch(() => null) ?? null;
  return renderPage(reply, 404, 'Page not found', html`<p>The page could not be found or you do not have permission to see it.</p><p><a href="/">Go to your projects</a></p>`, session);
}
