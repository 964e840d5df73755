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

/** `application/json`, `application/<anything>+json`, with or without parameters. */
export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i;

export const INVALID_JSON_MESSAGE = '400 Bad request - The request body is not valid JSON';

/** A JSON body as the routes see it: empty (or blank) is `{}`; `invalid` when it does not parse. */
export function parseJsonBody(text: string): { value: unknown; invalid: boolean } {
  try {
    return { value: JSON.parse(text), invalid: false };
  } catch {
    return text.trim() === '' ? { value: {}, invalid: false } : { value: undefined, invalid: true };
  }
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    const parsed = parseJsonBody(body as string);
    if (parsed.invalid) done(new ApiError(400, { message: INVALID_JSON_MESSAGE }), undefined);
    else done(null, parsed.value);
  });
  app.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });
  // Git's pack requests and other bodies are streamed by their own routes from request.raw (and
  // bare routes read their own: namespaced-routes.ts).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
