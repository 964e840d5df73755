// What every SSH command is handed, and how it refuses (gitlab-sshd's `ERROR: …` block on stderr).
import type { Socket } from 'node:net';
import type { ServerChannel } from 'ssh2';
import type { Deps } from '../platform/deps.js';
import { errorBlock } from './console.js';
import type { SshIdentity } from './identity.js';

export interface CommandContext {
  deps: Deps;
  channel: ServerChannel;
  identity: SshIdentity;
  /** The command as the client sent it. */
  command: string;
  /** The GIT_PROTOCOL the client set (`version=2`), if any. */
  gitProtocol: string | null;
  ip: string;
  /** The connection's TCP socket (the git services pace their output by it: paced-pipe.ts). */
  socket: Socket | null;
}

/** A command: the words of what the client asked for (the first is its name) → the exit code. */
export type Command = (context: CommandContext, words: string[]) => Promise<number>;

/** Refuse with gitlab-sshd's block on stderr; the exit code git sees. */
export function refuse(context: CommandContext, message: string, code = 1): number {
  context.channel.stderr.write(errorBlock(message));
  return code;
}
