// git's output into an SSH channel is paced by the client's acknowledgements (src/ssh/paced-pipe.ts):
// no more than the limit in flight, resumed when a window adjustment arrives on the connection, every
// byte delivered in order. The channel is a stand-in that keeps ssh2's window the way ssh2 does.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { pipePaced } from '../../src/ssh/paced-pipe.js';

class FakeChannel extends EventEmitter {
  outgoing = { window: 2 * 1024 * 1024 };
  received: Buffer[] = [];
  write(chunk: Buffer): boolean {
    this.received.push(chunk);
    this.outgoing.window -= chunk.length;
    return true;
  }
  /** The client read `bytes` and said so (SSH_MSG_CHANNEL_WINDOW_ADJUST), over the connection. */
  acknowledge(bytes: number, connection: PassThrough): void {
    this.outgoing.window += bytes;
    connection.write(Buffer.from('adjust'));
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('pipePaced', () => {
  it('stops reading once the limit is unacknowledged and resumes when the client acknowledges', async () => {
    const source = new PassThrough();
    const channel = new FakeChannel();
    const connection = new PassThrough();
    connection.resume();
    pipePaced(source, channel as unknown as ServerChannel, connection, 100);
    const chunks = Array.from({ length: 6 }, (_, i) => Buffer.alloc(60, i));
    for (const chunk of chunks) source.write(chunk);
    await tick();
    // 60 (40 under the limit) then 120 (over it): two chunks out, then paused.
    expect(channel.received).toHaveLength(2);
    expect(source.isPaused()).toBe(true);
    // Socket data that does not bring the backlog under the limit keeps it paused.
    connection.write(Buffer.from('keepalive'));
    await tick();
    expect(channel.received).toHaveLength(2);
    channel.acknowledge(120, connection);
    await tick();
    expect(channel.received.length).toBeGreaterThan(2);
    for (let i = 0; i < 10 && channel.received.length < chunks.length; i += 1) {
      channel.acknowledge(120, connection);
      await tick();
    }
    expect(Buffer.concat(channel.received)).toEqual(Buffer.concat(chunks));
  });

  it('waits for the channel to drain when ssh2 buffers (a window smaller than the limit)', async () => {
    const source = new PassThrough();
    const channel = new FakeChannel();
    let full = true;
    channel.write = function (chunk: Buffer) {
      this.received.push(chunk);
      return !full;
    };
    pipePaced(source, channel as unknown as ServerChannel, null, 1024 * 1024);
    source.write(Buffer.alloc(10, 1));
    source.write(Buffer.alloc(10, 2));
    await tick();
    expect(channel.received).toHaveLength(1);
    full = false;
    channel.emit('drain');
    await tick();
    expect(channel.received).toHaveLength(2);
  });

  it('stops listening on the connection when the channel closes', async () => {
    const source = new PassThrough();
    const channel = new FakeChannel();
    const connection = new PassThrough();
    pipePaced(source, channel as unknown as ServerChannel, connection, 10);
    source.write(Buffer.alloc(20));
    await tick();
    expect(connection.listenerCount('data')).toBe(1);
    channel.emit('close');
    expect(connection.listenerCount('data')).toBe(0);
    expect(source.listenerCount('data')).toBe(0);
  });
});
