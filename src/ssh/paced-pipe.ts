// git's output into an SSH channel, with at most IN_FLIGHT_LIMIT bytes sent that the client has not
// yet acknowledged (RFC 4254 §5.2 lets a sender use less than the window it is granted).
//
// Why not the whole window: OpenSSH's client (ssh 9.x) queues channel data it has not yet written to
// git in a buffer that it grows by reallocating and copying for every 32 KiB packet, so the more of
// its 2 MiB window a server fills ahead of git, the more it copies — quadratic in the backlog. Sent
// as fast as pack-objects produced it, a 30 MB clone cost the client's ssh 2.3 s of CPU (mostly
// memmove and page faults); with the backlog capped at 256 KiB, 0.2 s — the difference between SSH
// and HTTP clones in the repositories bench. 256 KiB still covers the bandwidth-delay product of a
// LAN; OpenSSH acknowledges data as soon as git has read it, so the cap costs nothing on loopback.
//
// ssh2 has no event for the client's window adjustments; they arrive as bytes on the connection's
// socket, which ssh2 reads first (it registered first), so a paused pipe re-checks the channel's
// window whenever the socket delivers data. The window is read from the channel's `outgoing` state,
// the only place ssh2 keeps it; nothing of ssh2 is changed.
import type { Readable } from 'node:stream';
import type { ServerChannel } from 'ssh2';

export const IN_FLIGHT_LIMIT = 256 * 1024;

/** Where ssh2 keeps the window the client granted (bytes it may still be sent). */
function windowOf(channel: ServerChannel): () => number {
  const outgoing = (channel as unknown as { outgoing: { window: number } }).outgoing;
  return () => outgoing.window;
}

/**
 * Pipe `source` into `channel` (not ending it: the session ends the channel after the exit status),
 * pausing while more than `limit` bytes are unacknowledged or ssh2's own buffer is full. `connection`
 * is the TCP socket the channel's connection runs on; without it only ssh2's buffering applies.
 */
export function pipePaced(source: Readable, channel: ServerChannel, connection: Readable | null, limit = IN_FLIGHT_LIMIT): void {
  const window = windowOf(channel);
  // The client restores its window to the same size with each adjustment: the largest window seen is
  // that size, and how far below it the window is now is what is in flight.
  let granted = window();
  const inFlight = () => {
    granted = Math.max(granted, window());
    return granted - window();
  };
  let waitingForClient = false;
  let waitingForDrain = false;
  const resumeIfClear = () => {
    if (waitingForClient && inFlight() <= limit) {
      waitingForClient = false;
      connection?.off('data', resumeIfClear);
    }
    if (!waitingForClient && !waitingForDrain) source.resume();
  };
  const drained = () => {
    waitingForDrain = false;
    resumeIfClear();
  };
  const onData = (chunk: Buffer) => {
    if (!channel.write(chunk)) {
      waitingForDrain = true;
      channel.once('drain', drained);
    }
    if (connection && !waitingForClient && inFlight() > limit) {
      waitingForClient = true;
      connection.on('data', resumeIfClear);
    }
    if (waitingForClient || waitingForDrain) source.pause();
  };
  const stop = () => {
    source.off('data', onData);
    connection?.off('data', resumeIfClear);
    channel.off('drain', drained);
  };
  source.on('data', onData);
  source.once('close', stop);
  channel.once('close', stop);
}
