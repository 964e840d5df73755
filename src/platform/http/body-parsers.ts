// Request bodies as real clients send them (docs/clients.md): JSON with an empty body, form-encoded
// bodies (with or without a charset), and anything else left unread for the route (git, raw alerts).
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import { limitUnauthenticatedBodies } from './body-limits.js';
import { parseMultipart } from './multipart.js';
import { parseForm, QUERY_PROBLEM } from './param-bag.js';


/** `application/json`, `application/<anything>+json`, with or without parameters. */
export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i;

export const INVALID_JSON_MESSAGE = '400 Bad request - The request body is not valid JSON';
export const TOO_DEEP_MESSAGE = '400 Bad request - The request body is nested deeper than 100 levels';

/**
 * Ruby's JSON parser, and so GitLab, refuses documents nested deeper than 100 levels (`max_nesting`).
 * Here it is what keeps a body cheap to parse: 1 MiB of nested brackets took 0.1–0.4 s in JSON.parse,
 * all of it on the event loop, before any route could look at a credential.
 */
export const MAX_JSON_NESTING = 100;
/** Smaller bodies parse in well under a millisecond at any depth: they are not scanned first. */
const NESTING_SCAN_FROM = 16 * 1024;
/** JSON bodies larger than this are refused before parsing, whatever the route's byte limit. */
export const MAX_JSON_BODY = 1024 * 1024;

export interface ParsedJson {
  value: unknown;
  /** The text does not parse, or nests deeper than MAX_JSON_NESTING (`tooDeep`). */
  invalid: boolean;
  tooDeep?: boolean;
}

/**
 * Whether brackets and braces outside strings nest deeper than `limit`, in one pass without parsing
 * (about a third of JSON.parse's time on small objects; strings are skipped with indexOf).
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Find the closing quote: one preceded by an even number of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false;
        let slash = end - 1;
        while (text.charCodeAt(slash) === 0x5c) slash -= 1;
        if ((end - 1 - slash) % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** A JSON body as the routes see it: empty (or blank) is `{}`; `invalid` when it does not parse. */
export function parseJsonBody(text: string): ParsedJson {
  if (text.length > NESTING_SCAN_FROM && nestedDeeperThan(text, MAX_JSON_NESTING)) return { value: undefined, invalid: true, tooDeep: true };
  try {
    return { value: JSON.parse(text), invalid: false };
  } catch {
    return text.trim() === '' ? { value: {}, invalid: false } : { value: undefined, invalid: true };
  }
}

export function registerBodyParsers(app: FastifyInstance): void {
  limitUnauthenticatedBodies(app);
  // A query string over the limits (param-bag.ts) is answered here, before any route sees it.
  app.addHook('onRequest', (request, _reply, done) => {
    const problem = (request.query as Record<symbol, unknown> | undefined)?.[QUERY_PROBLEM];
    done(problem instanceof Error ? problem : undefined);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    // Routes that take large forms (namespaced pages) raise their byte limit; JSON stays at 1 MiB.
    if ((body as string).length > MAX_JSON_BODY) return done(new ApiError(413, { message: '413 Request Entity Too Large' }), undefined);
    const parsed = parseJsonBody(body as string);
    if (parsed.invalid) done(new ApiError(400, { message: parsed.tooDeep ? TOO_DEEP_MESSAGE : INVALID_JSON_MESSAGE }), undefined);
    else done(null, parsed.value);
  });
  app.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // File uploads to the API (avatars): fields and files in the same parameter bag.
  app.addContentTypeParser(/^multipart\/form-data(\s*;.*)?$/i, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, String(request.headers['content-type'])));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Git's pack requests and other bodies are streamed by their own routes from request.raw (and
  // bare routes read their own: namespaced-routes.ts).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
