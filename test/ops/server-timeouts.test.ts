// Slow clients cannot hold connections forever (issue 33): headers and whole requests have deadlines
// (KILN_HEADERS_TIMEOUT_MS, KILN_REQUEST_TIMEOUT_MS), and git's smart HTTP is exempt from the request
// deadline. Every wait here is for an event (a socket closing), never for a fixed time.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { listenOnLoopback } from '../helpers/git.js';

let kiln: TestKiln;
let port: number;

beforeAll(async () => {
  kiln = await testKiln({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
  await kiln.createProject(await kiln.createUser('alice'), 'shop');
  port = Number(new URL(await listenOnLoopback(kiln.app)).port);
});
afterAll(() => kiln.close());

interface Held {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
  isOpen(): boolean;
}

/** A connection that sends `text` and then nothing more. */
function hold(text: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let open = true;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<string>((done) => socket.on('close', () => ((open = false), done(received))));
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(text);
      resolve({ socket, closed, isOpen: () => open });
    });
  });
}

const partialBody = (path: string, type = 'application/json') => `POST ${path} HTTP/1.1\r\nHost: kiln.test\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n{"name":`;

describe('a request whose body never finishes', () => {
  it('is answered 408 and its connection closed', async () => {
    const slow = await hold(partialBody('/api/v4/projects'));
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"message":"408 Request Timeout"}');
  });

  it('is also cut off on namespaced paths', async () => {
    const slow = await hold(partialBody('/alice/shop/-/issues', 'application/x-www-form-urlencoded'));
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('a git push whose pack is still arriving', () => {
  it('is not cut off by the request deadline', async () => {
    const push = await hold('POST /alice/shop.git/git-receive-pack HTTP/1.1\r\nHost: kiln.test\r\nContent-Type: application/x-git-receive-pack-request\r\nContent-Length: 100000\r\n\r\n0000');
    // A request started after the push reaches its deadline later than the push would.
    const later = await hold(partialBody('/api/v4/projects'));
    expect(await later.closed).toMatch(/408/);
    expect(push.isOpen()).toBe(true);
    push.socket.destroy();
  });
});

describe('headers that never finish', () => {
  it('close the connection with 408', async () => {
    const slow = await hold('GET /api/v4/version HTTP/1.1\r\nHost: kiln.test\r\nX-Slow: ');
    expect(await slow.closed).toMatch(/408/);
  });
});

describe('configuration', () => {
  it('reads the timeouts from KILN_*_TIMEOUT_MS and refuses bad values', () => {
    const config = loadConfig({ KILN_HEADERS_TIMEOUT_MS: '1000', KILN_REQUEST_TIMEOUT_MS: '2000', KILN_KEEP_ALIVE_TIMEOUT_MS: '3000' });
    expect([config.headersTimeoutMs, config.requestTimeoutMs, config.keepAliveTimeoutMs]).toEqual([1000, 2000, 3000]);
    expect(() => loadConfig({ KILN_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ KILN_HEADERS_TIMEOUT_MS: '0' })).toThrow(ConfigError);
  });
});
