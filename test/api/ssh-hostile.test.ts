// Hostile input at Kiln's SSH port (issue 37): a thousand TCP connections opened and dropped, clients
// that send garbage, and clients that never send a banner or never finish the key exchange. The
// server must close the idle ones after its login grace time, keep serving OpenSSH's client, and not
// keep memory for any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { sshClient, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';

// Short enough that the test sees idle clients cut, long enough for OpenSSH on a loaded machine.
const LOGIN_GRACE_MS = 4_000;
const DROPPED = 1_000;
const BATCH = 50;
const IDLE = 40;

let kiln: TestKiln;
let work: string;
let port: number;
const client = sshClient(() => work, () => port);
let alice: TestUser;
let aliceKey: SshKeyPair;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Resolves when the socket closes; rejects if it is still open after `ms` (a bounded wait, not a timing check). */
function closed(socket: Socket, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error(`the server kept an idle connection open for ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Resolves when the server ends the connection; rejects if it has not after `ms`. */
function endedByServer(socket: Socket, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept an idle connection open for ${ms} ms`)), ms);
    socket.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function open(): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  // Read what the server sends (its banner), so that its closing end reaches this side.
  socket.resume();
  return socket;
}

/** One hostile connection: dropped at once, dropped after garbage, or dropped half-way through a banner. */
function dropped(kind: number): Promise<void> {
  const socket = open();
  socket.once('connect', () => {
    if (kind === 0) socket.destroy();
    else if (kind === 1) socket.end(Buffer.concat([Buffer.from('SSH-2.0-hostile\r\n'), Buffer.alloc(256, 0xff)]));
    else socket.end('SSH-2.0-');
  });
  return closed(socket, 30_000);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-ssh-hostile-'));
  kiln = await testKiln();
  port = (await kiln.listenSsh({ port: 0, loginGraceMs: LOGIN_GRACE_MS })).port;
  alice = await kiln.createUser('alice');
  aliceKey = await sshKeygen(work, 'alice', 'ed25519');
  await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'laptop', key: aliceKey.publicKey });
  await kiln.createProject(alice, 'app', { initialize_with_readme: true } as never);
}, 120_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

async function greetingAndCloneWork(name: string): Promise<void> {
  const greeting = await client.ssh(aliceKey);
  expect(greeting.stdout, greeting.stderr).toBe('Welcome to GitLab, @alice!\n');
  const clone = await client.git(aliceKey, ['clone', '-q', client.url('alice/app.git'), join(work, name)]);
  expect(clone.code, clone.stderr).toBe(0);
}

describe('hostile connections to the SSH port', () => {
  let before = 0;

  it('serves OpenSSH before the flood (and warms up what the flood will touch)', async () => {
    await greetingAndCloneWork('clone-before');
    for (let i = 0; i < BATCH * 2; i += 1) await dropped(i % 3);
    before = heapAfterGc();
  }, 60_000);

  it(`${DROPPED} connections opened and dropped in batches of ${BATCH}: still served, no slot left taken`, async () => {
    for (let done = 0; done < DROPPED; done += BATCH) {
      await Promise.all(Array.from({ length: BATCH }, (_, i) => dropped((done + i) % 3)));
    }
    // Had any of them stayed counted as unauthenticated, the cap (100) would now drop OpenSSH's connection.
    await greetingAndCloneWork('clone-after-drops');
  }, 120_000);

  it('clients that never send a banner or never finish the key exchange are cut after the login grace time, and do not block others', async () => {
    const silent = Array.from({ length: IDLE / 2 }, () => open());
    const stalled = Array.from({ length: IDLE / 2 }, () => {
      const socket = open();
      // A banner and nothing more: the key exchange never starts from this side.
      socket.once('connect', () => socket.write('SSH-2.0-stalled\r\n'));
      return socket;
    });
    const banners = stalled.map((socket) => new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(String(chunk)))));
    // The server speaks first; the stalled clients hear its banner, then nothing completes.
    expect((await banners[0]).startsWith('SSH-2.0-Kiln')).toBe(true);
    // While they hang, a real client is served.
    await greetingAndCloneWork('clone-beside-idle');
    // Closed by the server (its end arrives; this side never ends them).
    await Promise.all([...silent, ...stalled].map((socket) => endedByServer(socket, LOGIN_GRACE_MS + 30_000)));
  }, 120_000);

  it('keeps no memory for them (heap after GC within a generous bound of before the flood)', async () => {
    await greetingAndCloneWork('clone-last');
    const growth = heapAfterGc() - before;
    expect(growth).toBeLessThan(32 * 1024 * 1024);
  }, 60_000);
});
