// How long a client may hold a connection without sending what it must (issue 33: slow bodies used to
// hold connections forever). Headers and idle keep-alive connections use Node's own timeouts; the
// whole-request deadline is Kiln's, because Node's `requestTimeout` cannot spare the transfers that
// legitimately take long: git's smart HTTP (a push uploads the whole pack) and LFS objects. Those are
// bounded by git's own protocol and the idle socket instead.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Config } from '../../config.js';

type TimeoutConfig = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

/** Paths whose bodies are git's or LFS's transfers: exempt from the request deadline. */
const LONG_TRANSFERS = /\.git\/(?:git-upload-pack|git-receive-pack|info\/lfs\/|gitlab-lfs\/)/;

const TIMED_OUT = JSON.stringify({ message: '408 Request Timeout' });

/** Options for `http.createServer`: Node checks header deadlines every `connectionsCheckingInterval`. */
export function serverTimeoutOptions(config: TimeoutConfig): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    // Kiln's deadline below replaces Node's (which would also cut git pushes off).
    requestTimeout: 0,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(config.headersTimeoutMs / 4))),
  };
}

export function isLongTransfer(url: string): boolean {
  const query = url.indexOf('?');
  return LONG_TRANSFERS.test(query === -1 ? url : url.slice(0, query));
}

/** The deadline timer of a request whose body is still arriving. */
const DEADLINE = Symbol('kiln.requestDeadline');
type TimedRequest = IncomingMessage & { [DEADLINE]?: NodeJS.Timeout };

/**
 * A request whose body has not fully arrived `limitMs` after its headers is answered 408 and its
 * connection closed. Requests without a body (no Content-Length or Transfer-Encoding) cost nothing.
 *
 * The listeners are shared functions added with `on`, the timer's arguments passed to it: no closure
 * and no `once` wrapper per request. With `request.once('end', …)` here (a bound function and its
 * state object for every request), every request's objects outlived the young generation under the
 * alert bench's load: its scavenges took 5 s of a 44 s run instead of 0.7 s, and an alert 74 µs of
 * CPU instead of 50 (docs/performance.md, Requests). `on` with a plain listener did not.
 */
export function enforceRequestDeadline(request: IncomingMessage, response: ServerResponse, limitMs: number): void {
  const headers = request.headers;
  if (request.complete || (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)) return;
  if (isLongTransfer(request.url ?? '')) return;
  const timer = setTimeout(answerTimedOut, limitMs, request, response);
  timer.unref();
  (request as TimedRequest)[DEADLINE] = timer;
  request.on('end', clearRequestDeadline);
  response.on('close', clearResponseDeadline);
}

function answerTimedOut(request: IncomingMessage, response: ServerResponse): void {
  (request as TimedRequest)[DEADLINE] = undefined;
  if (request.complete) return;
  const socket = request.socket;
  if (response.headersSent || response.destroyed) {
    socket.destroy();
    return;
  }
  response.writeHead(408, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(TIMED_OUT), connection: 'close' });
  response.end(TIMED_OUT, () => socket.destroy());
}

function clearRequestDeadline(this: IncomingMessage): void {
  const timer = (this as TimedRequest)[DEADLINE];
  if (timer === undefined) return;
  clearTimeout(timer);
  (this as TimedRequest)[DEADLINE] = undefined;
}

function clearResponseDeadline(this: ServerResponse): void {
  clearRequestDeadline.call(this.req);
}
