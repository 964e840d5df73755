// A response written during a turn of the event loop leaves at the end of that turn, with the other
// responses of the turn (src/platform/http/coalesced-writes.ts); nothing about it is lost or reordered.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { coalesceWrites } from '../../src/platform/http/coalesced-writes.js';

let server: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function listen(handler: Parameters<typeof createServer>[1], coalesce = true): Promise<number> {
  server = createServer(handler);
  if (coalesce) coalesceWrites(server);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes on a new connection and resolves with everything received until the server closes it. */
function rawExchange(port: number, sent: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.write(sent);
  });
}

describe('coalesced writes', () => {
  it('holds an answer written in a turn until the turn ends, then sends it whole', async () => {
    const seen: Array<{ sync: number; afterTurn: number }> = [];
    const port = await listen((request, response) => {
      response.end('hello');
      const socket = request.socket;
      const sync = socket.writableLength;
      setImmediate(() => setImmediate(() => seen.push({ sync, afterTurn: socket.writableLength })));
    });
    expect((await get(port, '/')).body.toString()).toBe('hello');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still queued right after end() (the socket's own write would have taken it at once), gone by the next turn.
    expect(seen[0].sync).toBeGreaterThan(0);
    expect(seen[0].afterTurn).toBe(0);
  });

  it('the same server without coalescing writes at once (what the first test tells apart)', async () => {
    let sync = -1;
    const port = await listen((request, response) => {
      response.end('hello');
      sync = request.socket.writableLength;
    }, false);
    await get(port, '/');
    expect(sync).toBe(0);
  });

  it('answers pipelined requests on one connection in order', async () => {
    const port = await listen((request, response) => response.end(`answer to ${request.url}`));
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    const paths = Array.from({ length: 20 }, (_, i) => `/p${i}`);
    socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    await new Promise<void>((resolve) => {
      const check = () => (paths.every((path) => text.includes(`answer to ${path}`)) ? resolve() : setTimeout(check, 5));
      check();
    });
    socket.destroy();
    const order = paths.map((path) => text.indexOf(`answer to ${path}`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('keeps a large streamed body intact, with backpressure, and ends it', async () => {
    const block = Buffer.alloc(64 * 1024);
    const port = await listen((_request, response) => {
      let sent = 0;
      const pump = () => {
        while (sent < 200) {
          block.fill(sent % 251);
          sent += 1;
          if (!response.write(Buffer.from(block))) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    const { body } = await get(port, '/');
    expect(body.length).toBe(200 * block.length);
    for (let i = 0; i < 200; i += 1) expect(body[i * block.length]).toBe(i % 251);
  });

  it('keeps answering others after a handler destroys its connection in the same tick as its answer', async () => {
    const port = await listen((request, response) => {
      response.end('late');
      if (request.url === '/gone') request.socket.destroy();
    });
    // Whether that answer leaves first depends on node:http's cork, with or without the queue.
    await get(port, '/gone').catch(() => undefined);
    expect((await get(port, '/fine')).body.toString()).toBe('late');
  });

  it('still answers a malformed request, which node:http writes and then destroys at once', async () => {
    const port = await listen((_request, response) => response.end('never'));
    const text = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it("still answers with Fastify's client error handler (write, then destroy)", async () => {
    const app = Fastify({
      serverFactory: (handler) => {
        const created = createServer(handler);
        coalesceWrites(created);
        return created;
      },
    });
    app.get('/', async () => 'ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as AddressInfo).port;
      // A header line without a colon: the parser fails, Fastify writes its 400 and destroys the socket.
      const text = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n');
      expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(text).toContain('"statusCode":400');
    } finally {
      await app.close();
    }
  });
});
