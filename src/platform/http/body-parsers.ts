// Request bodies as real clients send them (clients.md §0.2): JSON with an empty body, form-encoded
// bodies (with or without a charset), and anything else left unread for the route (git, raw alerts).
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';

/** Form fields, with Rails-style `key[]` arrays collected into arrays. */
export function parseForm(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const existing = result[key];
      result[key] = Array.isArray(existing) ? [...existing, value] : [value];
    } else {
      result[rawKey] = value;
    }
  }
  return result;
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(\s*;.*)?$/i, { parseAs: 'string' }, (request, body, done) => {
    // Kept for endpoints that enforce their own size and depth limits (the alert endpoint).
    request.rawBody = body as string;
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, { message: '400 Bad request - The request body is not valid JSON' }), undefined);
    }
  });
  app.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });
  // Git's pack requests and other bodies are streamed by their own routes from request.raw.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}
