// The commands gitlab-shell serves (cmd/gitlab-shell/command and internal/command), chosen by the
// first word of what the client asked for: nothing (the greeting), the git services, LFS
// authentication, and the account helpers. Anything else is gitlab-sshd's `Unknown command`.
import type { Deps } from '../platform/deps.js';
import { refuse, type Command, type CommandContext } from './command-context.js';
import { splitCommand } from './parse-command.js';
import { greet } from './commands/discover.js';
import { serveGitCommand, GIT_COMMANDS } from './commands/git-service.js';
import { personalAccessTokenCommand } from './commands/personal-access-token.js';
import { lfsAuthenticateCommand } from './commands/lfs-authenticate.js';
import { recoveryCodesCommand } from './commands/recovery-codes.js';

const COMMANDS: Record<string, Command> = {
  ...Object.fromEntries(GIT_COMMANDS.map((name) => [name, serveGitCommand])),
  'git-lfs-authenticate': lfsAuthenticateCommand,
  personal_access_token: personalAccessTokenCommand,
  '2fa_recovery_codes': recoveryCodesCommand,
};

/** The command as it may be shown back: one line, no control characters, not too long. */
function printable(command: string): string {
  const clean = [...command].map((char) => (char.charCodeAt(0) < 0x20 || (char.charCodeAt(0) >= 0x7f && char.charCodeAt(0) <= 0x9f) ? '?' : char)).join('');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

export async function runCommand(deps: Deps, context: Omit<CommandContext, 'deps'>): Promise<number> {
  const full = { deps, ...context };
  const words = splitCommand(context.command);
  if (words === null) return refuse(full, `Failed to parse command: Invalid SSH command: ${printable(context.command)}`, 128);
  if (words.length === 0) return greet(full);
  const command = Object.hasOwn(COMMANDS, words[0]) ? COMMANDS[words[0]] : undefined;
  if (!command) return refuse(full, `Unknown command: ${printable(context.command)}`, 128);
  return command(full, words);
}
