// `ssh git@host` with no command (gitlab-shell's discover): who the key belongs to.
import type { CommandContext } from '../command-context.js';

export async function greet(context: CommandContext): Promise<number> {
  const { identity } = context;
  context.channel.write(identity.kind === 'user' ? `Welcome to GitLab, @${identity.user.username}!\n` : 'Welcome to GitLab, Anonymous!\n');
  return 0;
}
