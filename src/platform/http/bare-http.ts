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
import type { RequestLabels } from '../request-histogram.js';
import type { BareHandler } from './namespaced-routes.js';

/** The body of a bare request: its text and, parsed on first use, its JSON. */
export interface BareBody {
  /** The body as received, when its content type is JSON (undefined otherwise, as with Fastify). */
  readonly text: string | undefined;
  /** The parsed JSON, `{}` for an empty body; undefined when not JSON or not parsable. Parsed on first use. */
  readonly json: unknown;
  /** A JSON content type carried text that does not parse (or nests too deeply to be parsed). */
  readonly invalidJson: boolean;
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

// One object per request, which is also the route's request and body (BareRequest, BareBody), and
// listeners shared by every request that find it on the message: a bare request allocates this object
// and the answer's header array, no closures and no per-request promise of its own (an alert is a few
// tens of microseconds of CPU, and each allocation is paid again in the collector).
const EXCHANGE = Symbol('bare exchange');

type Message = IncomingMessage & { [EXCHANGE]?: Exchange };

class Exchange implements BareRequest, BareBody {
  text: string | undefined = undefined;
  private parsed: ParsedJson | undefined = undefined;
  private chunks: Buffer[] | null = null;
  private size = 0;
  private settled = false;
  readonly started = performance.now();

  constructor(
    readonly route: CompiledRoute,
    readonly raw: IncomingMessage,
    readonly response: ServerResponse,
    readonly groups: Record<string, string>,
    readonly requestId: string,
  ) {}

  get body(): BareBody {
    return this;
  }

  get json(): unknown {
    return this.parse().value;
  }

  get invalidJson(): boolean {
    return this.parse().invalid;
  }

  private parse(): ParsedJson {
    return (this.parsed ??= this.text === undefined ? NOT_JSON : parseJsonBody(this.text));
  }

  /** A chunk of the body; past the limit nothing more is buffered and the route's refusal is sent. */
  take(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.route.bodyLimit) {
      this.settled = true;
      this.chunks = null;
      this.answer(this.route.tooLarge, true);
    } else if (this.chunks === null) this.chunks = [chunk];
    else this.chunks.push(chunk);
  }

  /** The whole body has arrived: hand it to the route. */
  end(): void {
    if (this.settled) return;
    this.settled = true;
    const chunks = this.chunks;
    this.chunks = null;
    if (JSON_CONTENT_TYPE.test(this.raw.headers['content-type'] ?? '')) {
      this.text = chunks === null ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    }
    // A failure is a 500, never a crash, also when `handle` throws before returning a promise.
    let handled: BareAnswer | Promise<BareAnswer>;
    try {
      handled = this.route.handle(this);
    } catch (error) {
      return this.fail(error);
    }
    if (handled instanceof Promise) handled.then(this.route.answerOf(this), this.route.failureOf(this));
    else this.answer(handled, false);
  }

  /** The client went away mid-body: there is no one to answer. */
  abort(): void {
    this.settled = true;
    this.chunks = null;
  }

  answer(result: BareAnswer, unread: boolean): void {
    send(this.response, result, this.requestId, unread);
    const route = this.route;
    route.metrics.requests.observe(route.labels(this.raw.method!, result.status), (performance.now() - this.started) / 1000);
    if (route.verbose) route.log.debug({ reqId: this.requestId, req: { method: this.raw.method, url: redactUrl(this.raw.url ?? '') }, res: { statusCode: result.status } }, 'request completed');
  }

  fail(error: unknown): void {
    this.route.log.error({ err: error, reqId: this.requestId, req: { method: this.raw.method, url: redactUrl(this.raw.url ?? '') } }, 'unhandled error');
    this.answer(SERVER_ERROR, false);
  }
}

function onData(this: Message, chunk: Buffer): void {
  this[EXCHANGE]!.take(chunk);
}

function onEnd(this: Message): void {
  this[EXCHANGE]!.end();
}

function onError(this: Message): void {
  this[EXCHANGE]!.abort();
}

/** What every request of one route shares. */
class CompiledRoute {
  readonly verbose: boolean;
  readonly tooLarge: BareAnswer;
  readonly bodyLimit: number;
  readonly metrics: Deps['metrics'];
  readonly log: Deps['log'];
  readonly handle: BareJsonRoute['handle'];
  /** The histogram's labels by method and status, made once each. */
  private readonly labelSets = new Map<string, Map<number, RequestLabels>>();

  constructor(deps: Deps, private readonly route: BareJsonRoute) {
    this.verbose = deps.log.isLevelEnabled('debug');
    this.tooLarge = route.tooLarge ?? TOO_LARGE;
    this.bodyLimit = route.bodyLimit;
    this.metrics = deps.metrics;
    this.log = deps.log;
    this.handle = route.handle;
  }

  labels(method: string, status: number): RequestLabels {
    let byStatus = this.labelSets.get(method);
    if (byStatus === undefined) this.labelSets.set(method, (byStatus = new Map()));
    let labels = byStatus.get(status);
    if (labels === undefined) byStatus.set(status, (labels = { method, route: this.route.name, status: String(status) }));
    return labels;
  }

  answerOf(exchange: Exchange): (result: BareAnswer) => void {
    return (result) => exchange.answer(result, false);
  }

  failureOf(exchange: Exchange): (error: unknown) => void {
    return (error) => exchange.fail(error);
  }
}

/** A bare route that reads a JSON body and answers JSON. */
export function bareJsonRoute(deps: Deps, spec: BareJsonRoute): BareHandler {
  const route = new CompiledRoute(deps, spec);
  return (request, response, groups) => {
    const header = request.headers['x-request-id'];
    const requestId = typeof header === 'string' && header !== '' ? header : randomUUID();
    const exchange = new Exchange(route, request, response, groups as Record<string, string>, requestId);
    if (Number(request.headers['content-length']) > route.bodyLimit) return exchange.answer(route.tooLarge, true);
    (request as Message)[EXCHANGE] = exchange;
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  };
}

function send(response: ServerResponse, answer: BareAnswer, requestId: string, unread: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const text = answer.json ?? JSON.stringify(answer.body);
  // python-gitlab compares the content type for equality (docs/clients.md): no charset on JSON. The
  // headers as one flat array: Node writes them as they are, with no header object to build and walk.
  // A refused body is not read: the connection cannot carry another request after it.
  response.writeHead(
    answer.status,
    unread
      ? ['content-type', 'application/json', 'content-length', Buffer.byteLength(text), 'x-request-id', requestId, 'connection', 'close']
      : ['content-type', 'application/json', 'content-length', Buffer.byteLength(text), 'x-request-id', requestId],
  );
  response.end(text);
}
