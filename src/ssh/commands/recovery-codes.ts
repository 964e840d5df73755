// `ssh git@host 2fa_recovery_codes` (gitlab-shell's twofactorrecover): asks first, then replaces the
// user's two-factor recovery codes and prints the new ones.
import { regenerateRecoveryCodes } from '../../accounts/api.js';
import { currentIdentity } from '../identity.js';
import { refuse, type CommandContext } from '../command-context.js';

/** gitlab-shell reads at most this much of the answer. */
const ANSWER_LIMIT = 1024;

/** The first line the client sends (its first word, as Go's Fscanln reads it), or '' at its end. */
function readAnswer(context: CommandContext): Promise<string> {
  const { channel } = context;
  return new Promise((resolve) => {
    let buffered = '';
    const done = () => {
      channel.off('data', onData);
      channel.off('end', done);
      channel.off('close', done);
      resolve(buffered.split('\n')[0].trim().split(/\s+/)[0] ?? '');
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.includes('\n') || buffered.length >= ANSWER_LIMIT) done();
    };
    channel.on('data', onData);
    channel.once('end', done);
    channel.once('close', done);
  });
}

export async function recoveryCodesCommand(context: CommandContext): Promise<number> {
  const { deps, channel } = context;
  const identity = await currentIdentity(deps, context.identity);
  if (!identity) return refuse(context, 'Could not find the given key');
  if (identity.kind === 'deploy_key') return refuse(context, 'Deploy keys cannot be used to retrieve recovery codes');
  channel.write('Are you sure you want to generate new two-factor recovery codes?\nAny existing recovery codes you saved will be invalidated. (yes/no)\n');
  if ((await readAnswer(context)) !== 'yes') {
    channel.write('\nNew recovery codes have *not* been generated. Existing codes will remain valid.\n');
    return 0;
  }
  const codes = identity.user.state === 'active' ? await regenerateRecoveryCodes(deps, Number(identity.user.id)) : null;
  if (!codes) {
    channel.write('\nAn error occurred while trying to generate new recovery codes.\nTwo-factor authentication is not enabled for this user\n');
    return 0;
  }
  channel.write(
    `\nYour two-factor authentication recovery codes are:\n\n${codes.join('\n')}\n\nDuring sign in, use one of the codes above when prompted for\n` +
      'your two-factor code. Then, visit your Profile Settings and add\na new device so you do not lose access to your account again.\n',
  );
  return 0;
}
