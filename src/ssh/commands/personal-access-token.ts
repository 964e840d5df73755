// `ssh git@host personal_access_token <name> <scope1[,scope2,...]> [ttl_days]` (gitlab-shell's
// personalaccesstoken and the internal API's personal_access_token): a token for the key's user,
// expiring in 30 days, or the day after ttl_days from today. Printed once, as gitlab-shell prints it.
import { DAY_MS } from '../../platform/clock.js';
import { ValidationError } from '../../platform/errors.js';
import { createPersonalAccessToken, scopesAvailableTo, today } from '../../accounts/api.js';
import { currentIdentity } from '../identity.js';
import { refuse, type CommandContext } from '../command-context.js';

const USAGE = 'Usage: personal_access_token <name> <scope1[,scope2,...]> [ttl_days]';

/** Ruby's Array#inspect of strings, as the internal API's message shows the valid scopes. */
function inspect(values: readonly string[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;
}

export async function personalAccessTokenCommand(context: CommandContext, words: string[]): Promise<number> {
  const { deps } = context;
  if (words.length < 3 || words.length > 4) return refuse(context, USAGE);
  const [, name, scopeList, ttl] = words;
  let days = 30;
  if (ttl !== undefined) {
    if (!/^\d{1,5}$/.test(ttl)) return refuse(context, `Invalid value for days_ttl: '${ttl}'`);
    days = Number(ttl) + 1;
  }
  const identity = await currentIdentity(deps, context.identity);
  if (!identity) return refuse(context, 'Could not find the given key');
  if (identity.kind === 'deploy_key') return refuse(context, 'Deploy keys cannot be used to create personal access tokens');
  if (identity.user.state !== 'active') return refuse(context, 'Could not find a user for the given key');
  if (name === '') return refuse(context, 'No token name specified');
  const scopes = scopeList.split(',').filter((scope) => scope !== '');
  if (scopes.length === 0) return refuse(context, 'No token scopes specified');
  const available = scopesAvailableTo(identity.user.admin === 1);
  const invalid = scopes.find((scope) => !available.includes(scope));
  if (invalid !== undefined) return refuse(context, `Invalid scope: '${invalid}'. Valid scopes are: ${inspect(available)}`);
  const expiresAt = today(deps.clock.now() + days * DAY_MS);
  try {
    const { token } = await createPersonalAccessToken(deps, { userId: Number(identity.user.id), name, scopes, expiresAt, availableScopes: available });
    context.channel.write(`Token:   ${token}\nScopes:  ${scopes.join(',')}\nExpires: ${expiresAt}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) return refuse(context, `Failed to create token: ${error.message}`);
    throw error;
  }
}
