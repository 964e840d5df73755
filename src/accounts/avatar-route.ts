// `/-/avatars/<username>.svg`: every user entity's `avatar_url` points here. A tiny generated SVG (the
// first letter of the name on a colour derived from the username), so pages load no third-party
// assets (docs/architecture.md) and no Gravatar request leaks who looks at whom.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';

const COLOURS = ['#6666c4', '#3d7a5c', '#a65e2e', '#8a4a8a', '#2e6f9e', '#9e3d3d', '#5c7a1f'];

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function avatarSvg(username: string, name: string): string {
  const initial = Array.from((name.trim() || username).toUpperCase())[0] ?? '?';
  const colour = COLOURS[createHash('sha256').update(username.toLowerCase()).digest()[0] % COLOURS.length];
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    `<rect width="64" height="64" rx="8" fill="${colour}"/>` +
    `<text x="32" y="43" font-family="sans-serif" font-size="30" text-anchor="middle" fill="#fff">${escapeXml(initial)}</text>` +
    '</svg>'
  );
}

export function avatarRoute(app: FastifyInstance, deps: Deps): void {
  // Avatars are public, as every user entity links them (anonymous answers included).
  app.get<{ Params: { file: string } }>('/-/avatars/:file', { config: { ability: { instance: 'read_instance' } } }, async (request, reply) => {
    const match = /^(.+)\.svg$/.exec(request.params.file);
    const user = match
      ? await deps.db.selectFrom('users').select(['username', 'name']).where('username_lower', '=', match[1].toLowerCase()).executeTakeFirst()
      : undefined;
    if (!user) return reply.code(404).type('text/plain').send('404 Not Found');
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(avatarSvg(user.username, user.name));
  });
}
