// What Fastify does for a request, done by hand for bare routes (namespaced-routes.ts): read the body
// within a limit and parse JSON as the body parsers do, keep or make the request id, answer JSON
// without a charset, turn a failure into GitLab's 500 with the detail logged, and time the request
// for /-/metrics. Nothing else: a bare route is an endpoint without sessions or cookies.
//
// The JSON is parsed when the route first asks for it, not before: a route that checks a credential
// first (the alert endpoint's key) never spends a parse on a caller without one (a nested 1 MiB
// body takes a tenth of a second or more to parse, all of it on the event loop).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps.js';
import { redactUrl } from '../logger.js';
import { JSON_CONTENT_TYPE, parseJsonBody, type ParsedJson } from './body-parsers.js';
import type { BareHandler } from './namespaced-routes.js';

export class BareBody {
  private parsed: ParsedJson | undefined;

  /** `text`: the body as received, when its content type is JSON (undefined otherwise, as with Fastify). */
  constructor(readonly text: string | undefined) {}

  /** The parsed JSON, `{}` for an empty body; undefined when not JSON or not parsable. Parsed on first use. */
  get json(): unknown {
    return this.parse().value;
  }

  /** A JSON content type carried text that does not parse (or nests too deeply to be parsed). */
  get invalidJson(): boolean {
    return this.parse().invalid;
  }

  private parse(): ParsedJson {
    return (this.parsed ??= this.text === undefined ? NOT_JSON : parseJsonBody(this.text));
  }
}

const NOT_JSON: ParsedJson = { value: undefined, invalid: false };

export interface BareRequest {
  raw: IncomingMessage;
  body: BareBody;
  groups: Record<string, string>;
}

export interface BareAnswer {
  status: number;
  body: unknown;
  /** `body` already serialised, when the route keeps answers it gives again and again. */
  json?: string;
}

export interface BareJsonRoute {
  /** The route's name in metrics and logs (a pattern, never the concrete URL). */
  name: string;
  /** Bodies above this many bytes are refused unread: 413, as Fastify's bodyLimit does, or `tooLarge`. */
  bodyLimit: number;
  /** The answer to a body over `bodyLimit`, when the endpoint has its own (the alert endpoint's 400). */
  tooLarge?: BareAnswer;
  handle(request: BareRequest): BareAnswer | Promise<BareAnswer>;
}

const TOO_LARGE: BareAnswer = { status: 413, body: { message: '413 Request Entity Too Large' } };
const SERVER_ERROR: BareAnswer = { status: 500, body: { message: '500 Internal Server Error' } };

/** A bare route that reads a JSON body and answers JSON. */
export function bareJsonRoute(deps: Deps, route: BareJsonRoute): BareHandler {
  const verbose = deps.log.isLevelEnabled('debug');
  const tooLarge = route.tooLarge ?? TOO_LARGE;
  return (request, response, groups) => {
    const started = performance.now();
    const header = request.headers['x-request-id'];
    const requestId = typeof header === 'string' && header !== '' ? header : randomUUID();
    const answer = (result: BareAnswer, unread = false) => {
      send(response, result, requestId, unread);
      deps.metrics.requests.observe({ method: request.method!, route: route.name, status: String(result.status) }, (performance.now() - started) / 1000);
      if (verbose) deps.log.debug({ reqId: requestId, req: { method: request.method, url: redactUrl(request.url ?? '') }, res: { statusCode: result.status } }, 'request completed');
    };
    const declared = Number(request.headers['content-length']);
    if (declared > route.bodyLimit) return answer(tooLarge, true);
    readBody(request, route.bodyLimit, (text) => {
      if (text === null) return answer(tooLarge, true);
      const body = new BareBody(JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '') ? text : undefined);
      const failed = (error: unknown) => {
        deps.log.error({ err: error, reqId: requestId, req: { method: request.method, url: redactUrl(request.url ?? '') } }, 'unhandled error');
        answer(SERVER_ERROR);
      };
      // A failure is a 500, never a crash, also when `handle` throws before returning a promise.
      let handled: BareAnswer | Promise<BareAnswer>;
      try {
        handled = route.handle({ raw: request, groups, body });
      } catch (error) {
        return failed(error);
      }
      if (handled instanceof Promise) handled.then(answer, failed);
      else answer(handled);
    });
  };
}

function send(response: ServerResponse, answer: BareAnswer, requestId: string, unread: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const text = answer.json ?? JSON.stringify(answer.body);
  // python-gitlab compares the content type for equality (docs/clients.md): no charset on JSON.
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-request-id': requestId };
  // A refused body is not read: the connection cannot carry another request after it.
  if (unread) headers.connection = 'close';
  response.writeHead(answer.status, headers);
  response.end(text);
}

/** The whole body as text, or null as soon as it passes `limit` bytes (nothing more is buffered). */
function readBody(request: IncomingMessage, limit: number, done: (text: string | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (text: string | null) => {
    if (settled) return;
    settled = true;
    done(text);
  };
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else settle(null);
  });
  request.on('end', () => settle(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
  // The client went away mid-body: there is no one to answer.
  request.on('error', () => {
    settled = true;
  });
}
