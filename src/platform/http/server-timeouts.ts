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

/**
 * A request whose body has not fully arrived `limitMs` after its headers is answered 408 and its
 * connection closed. Requests without a body (no Content-Length or Transfer-Encoding) cost nothing.
 */
export function enforceRequestDeadline(request: IncomingMessage, response: ServerResponse, limitMs: number): void {
  const headers = request.headers;
  if (request.complete || (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)) return;
  if (isLongTransfer(request.url ?? '')) return;
  const timer = setTimeout(() => {
    if (request.complete) return;
    const socket = request.socket;
    if (response.headersSent || response.destroyed) {
      socket.destroy();
      return;
    }
    response.writeHead(408, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(TIMED_OUT), connection: 'close' });
    response.end(TIMED_OUT, () => socket.destroy());
  }, limitMs);
  timer.unref();
  const clear = () => clearTimeout(timer);
  request.once('end', clear);
  response.once('close', clear);
}
