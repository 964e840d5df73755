// `kiln admin …`: operator tasks, the way `gitlab-rails runner` would do them.
import { parseArgs } from 'node:util';
import type { Config } from './config.js';
import { startKiln } from './bootstrap.js';
import { createUser } from './accounts/create-user.js';
import { updateUser } from './accounts/update-user.js';
import { findUserRow } from './accounts/lookup.js';
import { createPersonalAccessToken } from './accounts/personal-access-tokens.js';

const HELP: Record<string, string> = {
  'create-user': 'Usage: kiln admin create-user --username NAME --email EMAIL --password PASSWORD [--name "Full Name"] [--admin]',
  'create-token': 'Usage: kiln admin create-token --username NAME [--scopes "api,read_user"] [--name NAME] [--expires-at YYYY-MM-DD]\n\nPrints a new personal access token for the user (default scopes: api).',
  'reset-password': 'Usage: kiln admin reset-password --username NAME --password PASSWORD',
};

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    options: {
      username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' },
      admin: { type: 'boolean' }, scopes: { type: 'string' }, 'expires-at': { type: 'string' },
    },
    strict: true,
  }).values;
}

export const adminCommands = {
  help(sub?: string): string {
    return (sub && HELP[sub]) || `Usage: kiln admin <create-user|create-token|reset-password> [options]\n\n${Object.values(HELP).join('\n')}`;
  },

  async run(config: Config, argv: string[], fail: (message: string) => never): Promise<void> {
    const [sub, ...rest] = argv;
    if (!sub || !HELP[sub]) fail(`admin needs a subcommand\n\n${this.help()}`);
    let values: ReturnType<typeof parseOptions>;
    try {
      values = parseOptions(rest);
    } catch (error) {
      // A usage mistake is exit code 2 with the command's help, like a configuration error.
      fail(`${(error as Error).message}\n\n${HELP[sub]}`);
    }
    if (!values.username) fail(`--username is required\n\n${HELP[sub]}`);
    const kiln = await startKiln({ ...config, logLevel: 'warn' });
    try {
      const deps = kiln.deps;
      if (sub === 'create-user') {
        if (!values.email || !values.password) fail(`--email and --password are required\n\n${HELP[sub]}`);
        const user = await createUser(deps, { username: values.username, email: values.email, password: values.password, name: values.name ?? values.username, admin: values.admin });
        process.stdout.write(`created user ${user.username} (id ${user.id})\n`);
        return;
      }
      const user = await findUserRow(deps, values.username);
      if (!user) fail(`no user "${values.username}"`);
      if (sub === 'create-token') {
        const scopes = (values.scopes ?? 'api').split(/[,\s]+/).filter(Boolean);
        const { token } = await createPersonalAccessToken(deps, { userId: user.id, name: values.name ?? 'kiln admin', scopes, expiresAt: values['expires-at'] ?? null });
        process.stdout.write(`${token}\n`);
        return;
      }
      if (!values.password) fail(`--password is required\n\n${HELP[sub]}`);
      await updateUser(deps, user.id, { password: values.password });
      process.stdout.write(`password of ${user.username} reset\n`);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    } finally {
      await kiln.close();
    }
  },
};
