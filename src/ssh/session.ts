// One SSH session runs one command (gitlab-sshd's session.go): `exec` names it, `shell` (a plain
// `ssh git@host`) is the greeting. The only environment variable taken is GIT_PROTOCOL (protocol v2);
// terminals, X11, agent forwarding, subsystems and SFTP are refused.
import type { Socket } from 'node:net';
import type { ServerChannel, Session } from 'ssh2';
import type { Deps } from '../platform/deps.js';
import type { SshIdentity } from './identity.js';
import { runCommand } from './run-command.js';

/** gitlab-sshd's concurrent_sessions_limit per connection. */
export const MAX_SESSIONS_PER_CONNECTION = 10;

/** What git sends (`version=2`), nothing that could carry anything else. */
const GIT_PROTOCOL_VALUE = /^[A-Za-z0-9=:.,_-]{1,64}$/;

export function handleSession(deps: Deps, session: Session, identity: SshIdentity, ip: string, socket: Socket | null, ended: () => void): void {
  let gitProtocol: string | null = null;
  let started = false;
  const refuse = (_accept?: unknown, reject?: () => void) => reject?.();
  for (const request of ['pty', 'window-change', 'x11', 'signal', 'auth-agent', 'sftp', 'subsystem']) session.on(request, refuse);
  session.on('env', (accept, reject, info) => {
    if (info.key === 'GIT_PROTOCOL' && GIT_PROTOCOL_VALUE.test(info.val)) {
      gitProtocol = info.val;
      accept?.();
    } else reject?.();
  });
  const run = (channel: ServerChannel, command: string) => {
    started = true;
    runCommand(deps, { channel, identity, command, gitProtocol, ip, socket })
      .catch((error: unknown) => {
        deps.log.error({ err: error }, 'ssh command failed');
        return 1;
      })
      .then((code) => {
        channel.exit(code);
        channel.end();
      })
      .catch(() => undefined);
  };
  session.on('shell', (accept, reject) => (started ? reject?.() : run(accept(), '')));
  session.on('exec', (accept, reject, info) => (started ? reject?.() : run(accept(), info.command)));
  session.once('close', ended);
}
