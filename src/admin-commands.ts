// `kiln admin …`: operator tasks, the way `gitlab-rails runner` or `gitlab-backup` would do them.
// Flags and arguments are checked before Kiln starts (nothing is written for a bad call); passwords
// come from standard input or a prompt, never from the command line.
// The accounts feature and operations (~0.5 s and ~0.6 s of loading) are imported by the step that
// uses them, so a mistaken call (an unknown command or flag, a missing argument) answers at once.
import { parseArgs } from 'node:util';
import type { Config } from './config.js';
import type { Kiln } from './bootstrap.js';
import { ConflictError, UsageError, ValidationError } from './platform/errors.js';

const accounts = () => import('./accounts/api.js');
const operations = () => import('./operations/api.js');

type Options = Record<string, { type: 'string' | 'boolean' }>;
type Values = Record<string, string | boolean | undefined>;

interface AdminCommand {
  usage: string;
  /** A function where the text needs a feature loaded (help only). */
  about: string | (() => Promise<string>);
  options: Options;
  /** The name of the one positional argument, if the command takes one. */
  argument?: string;
  /** Checks and reads what it needs (a password) before Kiln starts. */
  prepare?(values: Values, argument: string | undefined): Promise<void> | void;
  run(config: Config, values: Values, argument: string | undefined): Promise<void>;
}

const say = (line: string) => void process.stdout.write(`${line}\n`);

/** Validation messages of the accounts feature, told with the flag they came from. */
const FLAGS: Record<string, string> = { username: '--username', email: '--email', name: '--name', password: 'the password', scopes: '--scopes', expires_at: '--expires-at' };

function asUsageError(error: unknown): unknown {
  if (error instanceof ValidationError) {
    const [field, messages] = Object.entries(error.fields)[0];
    return new UsageError(`${FLAGS[field] ?? field} ${messages.join(', ')}`);
  }
  if (error instanceof ConflictError) return new UsageError(error.message);
  return error;
}

async function withKiln<T>(config: Config, work: (kiln: Kiln) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: help and a rejected call answer without loading the application.
  const { startKiln } = await import('./bootstrap.js');
  const kiln = await startKiln({ ...config, logLevel: 'warn' });
  try {
    return await work(kiln);
  } catch (error) {
    throw asUsageError(error);
  } finally {
    await kiln.close();
  }
}

async function findUser(kiln: Kiln, username: string) {
  const user = await (await accounts()).findUserRow(kiln.deps, username);
  if (!user) throw new UsageError(`--username "${username}": no such user`);
  return user;
}

function required(values: Values, flag: string): string {
  const value = values[flag];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}

const NO_PASSWORD_FLAG = '--password is not accepted: the command line is kept in shell history and shown by ps; type the password at the prompt or pipe it on standard input';

// The password read in prepare(), before Kiln starts, so a prompt never waits with the database open.
let password = '';

const COMMANDS: Record<string, AdminCommand> = {
  'create-user': {
    usage: 'kiln admin create-user --username NAME --email EMAIL [--name "Full Name"] [--admin]',
    about: 'Creates a user. The password is asked for at a terminal, or read from standard input.',
    options: { username: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean' }, password: { type: 'string' } },
    async prepare(values) {
      if (values.password !== undefined) throw new UsageError(NO_PASSWORD_FLAG);
      const username = required(values, 'username');
      const email = required(values, 'email');
      const [{ validateUserFields }, { readPassword }] = await Promise.all([accounts(), operations()]);
      try {
        validateUserFields({ username, email, name: (values.name as string | undefined) ?? username }, true);
        password = await readPassword();
        validateUserFields({ password }, false);
      } catch (error) {
        throw asUsageError(error);
      }
    },
    run: (config, values) =>
      withKiln(config, async (kiln) => {
        const username = values.username as string;
        const user = await (await accounts()).createUser(kiln.deps, { username, email: values.email as string, password, name: (values.name as string | undefined) ?? username, admin: Boolean(values.admin) });
        say(`created user ${user.username} (id ${user.id})`);
      }),
  },
  'create-token': {
    usage: 'kiln admin create-token --username NAME [--scopes "api,read_user"] [--name NAME] [--expires-at YYYY-MM-DD]',
    about: async () => `Prints a new personal access token for the user (default scopes: api; any of ${(await accounts()).PAT_SCOPES.join(', ')}).`,
    options: { username: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, 'expires-at': { type: 'string' } },
    async prepare(values) {
      required(values, 'username');
      const [{ PAT_SCOPES }, { parseExpiryDate }] = await Promise.all([accounts(), operations()]);
      const scopes = String(values.scopes ?? 'api').split(/[,\s]+/).filter(Boolean);
      const unknown = scopes.filter((scope) => !(PAT_SCOPES as readonly string[]).includes(scope));
      if (scopes.length === 0 || unknown.length) throw new UsageError(`--scopes "${String(values.scopes)}": ${unknown.length ? `${unknown.join(', ')} is not a scope` : 'none given'} (scopes: ${PAT_SCOPES.join(', ')})`);
      if (values.name !== undefined && !String(values.name).trim()) throw new UsageError("--name can't be blank");
      if (values['expires-at'] !== undefined) parseExpiryDate(String(values['expires-at']), Date.now());
    },
    run: (config, values) =>
      withKiln(config, async (kiln) => {
        const [{ createPersonalAccessToken, scopesAvailableTo }, { parseExpiryDate }] = await Promise.all([accounts(), operations()]);
        const user = await findUser(kiln, values.username as string);
        const scopes = String(values.scopes ?? 'api').split(/[,\s]+/).filter(Boolean);
        const expiresAt = values['expires-at'] === undefined ? null : parseExpiryDate(String(values['expires-at']), kiln.deps.clock.now());
        const { token } = await createPersonalAccessToken(kiln.deps, { userId: user.id, name: (values.name as string | undefined) ?? 'kiln admin', scopes, expiresAt, availableScopes: scopesAvailableTo(Boolean(user.admin)) });
        say(token);
      }),
  },
  'reset-password': {
    usage: 'kiln admin reset-password --username NAME',
    about: 'Sets a new password for the user, asked for at a terminal or read from standard input.',
    options: { username: { type: 'string' }, password: { type: 'string' } },
    async prepare(values) {
      if (values.password !== undefined) throw new UsageError(NO_PASSWORD_FLAG);
      required(values, 'username');
      const [{ validateUserFields }, { readPassword }] = await Promise.all([accounts(), operations()]);
      password = await readPassword();
      try {
        validateUserFields({ password }, false);
      } catch (error) {
        throw asUsageError(error);
      }
    },
    run: (config, values) =>
      withKiln(config, async (kiln) => {
        const user = await findUser(kiln, values.username as string);
        await (await accounts()).updateUser(kiln.deps, user.id, { password });
        say(`password of ${user.username} reset`);
      }),
  },
  backup: {
    usage: 'kiln admin backup DIR [--skip-database]',
    about:
      'Backs up the running instance into the new directory DIR: the database (SQLite: VACUUM INTO; PostgreSQL: pg_dump), secrets.json and the repositories.\n' +
      'With --skip-database (PostgreSQL) the database is left to you: dump it first (docs/operations/backup.md).',
    options: { 'skip-database': { type: 'boolean' } },
    argument: 'DIR',
    run: async (config, values, directory) => {
      const manifest = await (await operations()).backup(config, directory!, { skipDatabase: Boolean(values['skip-database']), say });
      say(`backup complete in ${directory} (${manifest.database}, ${manifest.repositories.length} repositories)`);
      if (manifest.database === 'postgres' && !manifest.database_file) {
        say('the database is NOT in this backup: keep your own PostgreSQL dump, taken before this command ran, beside it (docs/operations/backup.md)');
      }
    },
  },
  restore: {
    usage: 'kiln admin restore DIR',
    about: 'Restores a backup into an empty KILN_DATA_DIR (and empty storage shards). Kiln must not run on that data dir.',
    options: {},
    argument: 'DIR',
    run: async (config, _values, directory) => {
      await (await operations()).restore(config, directory!, say);
      say('start Kiln on it with `kiln serve`; it migrates a backup of an older Kiln on its first start');
    },
  },
};

async function help(name: string): Promise<string> {
  const command = COMMANDS[name];
  return `Usage: ${command.usage}\n\n${typeof command.about === 'string' ? command.about : await command.about()}`;
}

/** node:util's parse errors, as one line naming the flag. */
function parseError(error: Error & { code?: string }): UsageError {
  const flag = /'(-[^' ]+)/.exec(error.message)?.[1];
  const argument = /argument '([^']*)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${flag ?? error.message}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(/does not take/.test(error.message) ? `${flag} takes no value` : `${flag} needs a value`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument "${argument ?? '?'}"`);
    default:
      return new UsageError(error.message.split('\n')[0]);
  }
}

export const adminCommands = {
  async help(sub?: string): Promise<string> {
    if (sub && COMMANDS[sub]) return help(sub);
    return `Usage: kiln admin <${Object.keys(COMMANDS).join('|')}> [options]\n\n${Object.values(COMMANDS).map((command) => `  ${command.usage}`).join('\n')}\n\nRun "kiln admin <command> --help" for one command.`;
  },

  /**
   * Checks the call; returns the work to do once configuration is loaded. Throws a UsageError (exit
   * code 2) for any mistake in the call, before anything is written.
   */
  async prepare(argv: string[]): Promise<(config: Config) => Promise<void>> {
    const [sub, ...rest] = argv;
    if (!sub) throw new UsageError(`admin needs a command: ${Object.keys(COMMANDS).join(', ')}`);
    const command = COMMANDS[sub];
    if (!command) throw new UsageError(`unknown admin command "${sub}" (kiln admin --help lists them)`);
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: Boolean(command.argument) });
    } catch (error) {
      throw prefixed(sub, parseError(error as Error));
    }
    const { values, positionals } = parsed;
    if (command.argument && positionals.length !== 1) {
      throw prefixed(sub, new UsageError(positionals.length === 0 ? `needs the ${command.argument} argument: ${command.usage}` : `takes one ${command.argument}, got ${positionals.length}: ${positionals.join(' ')}`));
    }
    try {
      await command.prepare?.(values, positionals[0]);
    } catch (error) {
      throw prefixed(sub, error);
    }
    return async (config) => {
      try {
        await command.run(config, values, positionals[0]);
      } catch (error) {
        throw prefixed(sub, error);
      }
    };
  },
};

/** "admin create-token: --username is required". */
function prefixed(sub: string, error: unknown): unknown {
  if (error instanceof UsageError) return new UsageError(`admin ${sub}: ${error.message}`);
  return error;
}
