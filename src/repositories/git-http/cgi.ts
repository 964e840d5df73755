// A CGI bridge to `git http-backend` (RFC 3875; git-http-backend(1)): the request body is streamed
// into the child, its CGI header block is parsed into the HTTP status and headers, and the rest of
// its output is streamed back. git http-backend inflates `Content-Encoding: gzip` bodies itself
// (HTTP_CONTENT_ENCODING), which git uses for large fetch negotiations.
import { spawn } from 'node:child_process';
import { PassThrough, type Duplex, type Readable } from 'node:stream';
import { GIT_ENV } from '../git.js';

export interface CgiRequest {
  projectRoot: string;
  /** `/<repository relative to projectRoot>/<info/refs | git-upload-pack | git-receive-pack>` */
  pathInfo: string;
  method: 'GET' | 'POST';
  queryString: string;
  remoteUser: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: Readable | null;
  /** Added to the child's environment (the hooks of a push). */
  env?: Record<string, string>;
  /**
   * Given a socket pair that the child and its children (receive-pack's hooks) inherit as file
   * descriptor 3; it is closed on Kiln's side when the child exits.
   */
  channel?: (socket: Duplex) => void;
}

export interface CgiResponse {
  status: number;
  headers: Record<string, string>;
  /** The response body; it ends only after `finish` (if given) has run. */
  body: Readable;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number>;
}

function header(headers: CgiRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseHeaderBlock(block: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}

/**
 * Run git http-backend. `finish` runs after the child exits and before the response body ends
 * (push events are recorded there, so a client sees them as soon as its push returns).
 */
export function runHttpBackend(request: CgiRequest, finish?: (exitCode: number) => Promise<void>): Promise<CgiResponse> {
  const env: Record<string, string> = {
    ...GIT_ENV,
    GIT_PROJECT_ROOT: request.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: request.pathInfo,
    REQUEST_METHOD: request.method,
    QUERY_STRING: request.queryString,
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
  };
  if (request.remoteUser) env.REMOTE_USER = request.remoteUser;
  const contentType = header(request.headers, 'content-type');
  if (contentType) env.CONTENT_TYPE = contentType;
  const contentLength = header(request.headers, 'content-length');
  if (contentLength && /^\d+$/.test(contentLength)) env.CONTENT_LENGTH = contentLength;
  const encoding = header(request.headers, 'content-encoding');
  if (encoding) env.HTTP_CONTENT_ENCODING = encoding;
  // Protocol v2 is negotiated through this header (gitprotocol-http(5)).
  const protocol = header(request.headers, 'git-protocol');
  if (protocol) env.HTTP_GIT_PROTOCOL = protocol;

  Object.assign(env, request.env);

  const child = spawn('git', ['http-backend'], { env, stdio: request.channel ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'] });
  if (request.channel) {
    const socket = child.stdio[3] as Duplex | null;
    if (socket) {
      request.channel(socket);
      // A process git detached (an automatic gc) may still hold the descriptor: do not wait for it.
      child.once('exit', () => socket.destroy());
    }
  }
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? 1)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString();
  });
  child.stdin.on('error', () => undefined); // the child may exit before reading everything (an error answer)
  if (request.body) request.body.pipe(child.stdin);
  else child.stdin.end();

  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let headerDone = false;
    const body = new PassThrough();
    child.once('error', reject);
    const onData = (chunk: Buffer) => {
      if (headerDone) return;
      buffered = Buffer.concat([buffered, chunk]);
      const crlf = buffered.indexOf('\r\n\r\n');
      const lf = buffered.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
      if (end < 0) {
        if (buffered.length > 64 * 1024) reject(new Error('git http-backend sent an oversized header block'));
        return;
      }
      headerDone = true;
      child.stdout.off('data', onData);
      const parsed = parseHeaderBlock(buffered.subarray(0, end).toString('latin1'));
      const rest = buffered.subarray(end);
      if (rest.length) body.write(rest);
      child.stdout.pipe(body, { end: false });
      child.stdout.once('end', () => {
        void exited
          .then(async (code) => {
            if (code !== 0 && stderr) body.emit('backend-stderr', stderr);
            if (finish) await finish(code);
          })
          .catch((error) => body.emit('finish-error', error))
          .finally(() => body.end());
      });
      resolve({ status: parsed.status, headers: parsed.headers, body, exited });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      if (!headerDone) reject(new Error(`git http-backend exited with ${code} before its headers: ${stderr.trim()}`));
    });
  });
}
