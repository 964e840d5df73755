// Kiln's SSH server (as gitlab-sshd, on the pure-JavaScript ssh2 library): the user must be `git`, the
// only authentication is a public key that Kiln knows, and each session runs one gitlab-shell command
// (session.ts). Connections are accepted by Kiln's own TCP server and handed to ssh2, so that limits
// apply before any SSH byte is read:
// - an address banned for failed authentication (the same ban as git over HTTP, throttle.ts) is
//   dropped at once; a connection that authenticates with no known key counts one failure;
// - a connection must authenticate within the login grace time (gitlab-sshd's 60 s) or it is cut;
// - at most MAX_UNAUTHENTICATED connections may be unauthenticated at once (OpenSSH's MaxStartups
//   hard limit); more are dropped, so a flood of idle connections cannot exhaust the process.
import { createServer, type Socket } from 'node:net';
import ssh2, { type AuthContext, type Connection, type PublicKeyAuthContext } from 'ssh2';
import type { Deps } from '../platform/deps.js';
import { fingerprintsOf, noteKeyUse } from '../keys/api.js';
import { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from '../repositories/api.js';
import { identityOfKey, type SshIdentity } from './identity.js';
import { handleSession, MAX_SESSIONS_PER_CONNECTION } from './session.js';

export interface SshServerOptions {
  /** How long a connection may take to authenticate (gitlab-sshd's login_grace_time, 60 s). */
  loginGraceMs?: number;
  maxUnauthenticated?: number;
}

export interface SshServer {
  port: number;
  /** Stop accepting; sessions in flight get `drainMs` (default 10 s) to end, then are cut. */
  close(drainMs?: number): Promise<void>;
}

const DEFAULT_LOGIN_GRACE_MS = 60_000;
const MAX_UNAUTHENTICATED = 100;

/** The one user name gitlab-sshd accepts (its `user` setting). */
const SSH_USER = 'git';

function hostKeysOf(deps: Deps): string[] {
  const keys = deps.secrets.sshHostKeys;
  if (!keys) throw new Error('the instance secrets have no SSH host keys');
  return [keys.ed25519, keys.rsa];
}

async function verifiedIdentity(deps: Deps, context: PublicKeyAuthContext): Promise<SshIdentity | null> {
  const identity = await identityOfKey(deps, fingerprintsOf(context.key.data).sha256);
  if (!identity) return null;
  // Without a signature the client only asks whether the key would do (RFC 4252 §7): yes, then.
  if (!context.signature || !context.blob) return identity;
  const parsed = ssh2.utils.parseKey(context.key.data);
  if (parsed instanceof Error) return null;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  return key.verify(context.blob, context.signature, context.hashAlgo) === true ? identity : null;
}

export async function startSshServer(deps: Deps, host: string, port: number, options: SshServerOptions = {}): Promise<SshServer> {
  const graceMs = options.loginGraceMs ?? DEFAULT_LOGIN_GRACE_MS;
  const maxUnauthenticated = options.maxUnauthenticated ?? MAX_UNAUTHENTICATED;
  const sockets = new Set<Socket>();
  /** Sockets not yet authenticated, by `address:port` (how ssh2's connection names its peer). */
  const pending = new Map<string, { socket: Socket; timer: NodeJS.Timeout }>();

  const ssh = new ssh2.Server({ hostKeys: hostKeysOf(deps), ident: 'Kiln', keepaliveInterval: 30_000, keepaliveCountMax: 4 }, (client: Connection, info) => {
    const peer = `${info.ip}:${info.port}`;
    let identity: SshIdentity | null = null;
    let failed = false;
    client.on('error', (error) => deps.log.debug({ err: error, ip: info.ip }, 'ssh connection error'));
    client.on('authentication', (context: AuthContext) => {
      if (context.method !== 'publickey' || context.username !== SSH_USER) return context.reject(['publickey']);
      verifiedIdentity(deps, context).then(
        (found) => {
          if (!found) {
            failed = true;
            return context.reject(['publickey']);
          }
          identity = found;
          context.accept();
        },
        (error: unknown) => {
          deps.log.error({ err: error }, 'ssh key look-up failed');
          context.reject(['publickey']);
        },
      );
    });
    client.on('ready', () => {
      const entry = pending.get(peer);
      const socket = entry?.socket ?? null;
      if (entry) clearTimeout(entry.timer);
      pending.delete(peer);
      failed = false;
      const authenticated = identity!;
      void noteKeyUse(deps, authenticated.key).catch((error: unknown) => deps.log.warn({ err: error }, 'noting a key use failed'));
      void clearGitAuthFailures(deps, info.ip).catch(() => undefined);
      let sessions = 0;
      client.on('session', (accept, reject) => {
        if (sessions >= MAX_SESSIONS_PER_CONNECTION) return reject();
        sessions += 1;
        const session = accept();
        handleSession(deps, session, authenticated, info.ip, socket, () => (sessions -= 1));
      });
    });
    client.on('close', () => {
      if (failed) void recordGitAuthFailure(deps, info.ip).catch(() => undefined);
    });
  });
  ssh.on('error', (error: Error) => deps.log.warn({ err: error }, 'ssh server error'));

  const tcp = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (pending.size >= maxUnauthenticated) return socket.destroy();
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const timer = setTimeout(() => socket.destroy(), graceMs);
    pending.set(peer, { socket, timer });
    socket.once('close', () => {
      clearTimeout(timer);
      if (pending.get(peer)?.socket === socket) pending.delete(peer);
    });
    gitAuthThrottle(deps, socket.remoteAddress ?? '').then(
      (throttle) => (throttle.banned ? socket.destroy() : ssh.injectSocket(socket)),
      (error: unknown) => {
        deps.log.error({ err: error }, 'ssh address check failed');
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, host, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  tcp.on('error', (error) => deps.log.warn({ err: error }, 'ssh listener error'));
  const address = tcp.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: (drainMs = 10_000) =>
      new Promise<void>((resolve) => {
        for (const { socket, timer } of pending.values()) {
          clearTimeout(timer);
          socket.destroy();
        }
        const cut = setTimeout(() => sockets.forEach((socket) => socket.destroy()), drainMs);
        tcp.close(() => {
          clearTimeout(cut);
          resolve();
        });
      }),
  };
}
