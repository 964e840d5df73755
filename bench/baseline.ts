// The bare node:http baseline of `npm run bench`: answers GET /size/<n> with a JSON body of about n
// bytes, serialised per request (as Kiln serialises its entities), so the ratio measures what Kiln
// adds on top of Node's HTTP stack for a response of the same size.
// The pre-serialised baseline: PUT /fixed/<name> stores a body and its headers (the exact bytes Kiln
// answered the bench's probe with); GET /fixed/<name> sends them as they are, which is the physical
// limit of an HTTP answer of that size on this machine (issue 20).
// The replay baseline of the realistic mixes: PUT /replay/<name> stores Kiln's answers to a set of
// requests (status, headers, body, keyed by the request's token and path); GET /replay/<name><path>
// with that token answers Kiln's answer to that request, so the baseline serves the same mix of
// answers, 404s included, with nothing but a map look-up between the socket and the bytes.
// Usage: node dist/bench/baseline.js <port>
import { createServer } from 'node:http';

const documents = new Map<number, unknown>();

/** An array of small objects whose JSON is about `size` bytes, like a page of entities. */
export function documentOfSize(size: number): unknown {
  const item = (i: number) => ({ id: i, name: `item-${i}`, path: `group/item-${i}`, created_at: '2026-11-22T08:00:00.000Z', visibility: 'private', filler: '' });
  const oneLength = JSON.stringify(item(100)).length + 1;
  const count = Math.max(1, Math.floor(size / oneLength));
  const items = Array.from({ length: count }, (_, i) => item(i + 100));
  const missing = size - JSON.stringify(items).length;
  if (missing > 0) items[0].filler = 'x'.repeat(missing);
  return count === 1 && size < oneLength ? { ...items[0] } : items;
}

const fixed = new Map<string, { body: Buffer; headers: Record<string, string> }>();

function storeFixed(name: string, request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const headers = JSON.parse(String(request.headers['x-fixed-headers'] ?? '{}')) as Record<string, string>;
    const body = Buffer.concat(chunks);
    fixed.set(name, { body, headers: { ...headers, 'content-length': String(body.byteLength) } });
    response.writeHead(204).end();
  });
}

/** One answer as bench/mix.ts sends it. */
interface ReplayAnswer {
  token: string | null;
  path: string;
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

const replays = new Map<string, Map<string, { status: number; body: Buffer; headers: Record<string, string> }>>();
const replayKey = (token: string | null, path: string) => `${token ?? ''} ${path}`;

function storeReplay(name: string, request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const answers = new Map<string, { status: number; body: Buffer; headers: Record<string, string> }>();
    for (const answer of JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReplayAnswer[]) {
      const body = Buffer.from(answer.body, 'base64');
      answers.set(replayKey(answer.token, answer.path), { status: answer.status, body, headers: { ...answer.headers, 'content-length': String(body.byteLength) } });
    }
    replays.set(name, answers);
    response.writeHead(204).end();
  });
}

function replay(url: string, request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse): void {
  if (request.method === 'PUT') return storeReplay(url.slice('/replay/'.length), request, response);
  const slash = url.indexOf('/', '/replay/'.length);
  const answers = replays.get(url.slice('/replay/'.length, slash));
  const token = request.headers['private-token'];
  const answer = answers?.get(replayKey(typeof token === 'string' ? token : null, url.slice(slash)));
  if (!answer) return void response.writeHead(599).end();
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

const port = Number(process.argv[2] ?? 0);
const server = createServer((request, response) => {
  if (request.url?.startsWith('/replay/')) return replay(request.url, request, response);
  const fixedName = /^\/fixed\/([\w-]+)/.exec(request.url ?? '')?.[1];
  if (fixedName !== undefined) {
    if (request.method === 'PUT') return storeFixed(fixedName, request, response);
    const answer = fixed.get(fixedName);
    if (!answer) return void response.writeHead(404).end();
    response.writeHead(200, answer.headers);
    return void response.end(answer.body);
  }
  const match = /^\/size\/(\d+)/.exec(request.url ?? '');
  const size = match ? Math.min(Number(match[1]), 10_000_000) : 300;
  let document = documents.get(size);
  if (!document) documents.set(size, (document = documentOfSize(size)));
  const body = JSON.stringify(document);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`baseline listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
