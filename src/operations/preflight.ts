// Checks a command runs before it writes anything: can the data directory (and every storage shard)
// be created and written, and is the listening address free. Each failure is a ConfigError naming
// the variable and the value, so `kiln` stops with one line and exit code 2 instead of failing later
// with a bare errno (or, for /proc/x, spinning: Node's recursive mkdir loops there for ever).
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { ConfigError, type Config } from '../config.js';
import { PRIVATE_DIR_MODE } from '../platform/data-dir.js';

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    case 'ENOENT':
      return 'cannot be created here';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return code ?? String((error as Error).message ?? error);
  }
}

/**
 * `mkdir -p` one level at a time: the nearest existing ancestor first, then each missing directory
 * without `recursive` (which Node turns into an endless loop on paths it can never create).
 */
function makeDirectory(path: string): void {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      if (!statSync(current).isDirectory()) {
        const error = new Error(`${current} is not a directory`) as NodeJS.ErrnoException;
        error.code = 'ENOTDIR';
        throw error;
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.unshift(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  for (const directory of missing) createDirectory(directory);
}

/**
 * mkdir that lets another process win: nodes started together (`kiln migrate` on each) create the
 * same data directory, and the one that finds it made between its stat and its mkdir goes on.
 * Something else at that path (a file) still fails. Made private (0700), as the data directory is
 * kept: whatever command creates it first (`restore` too) leaves it so.
 */
export function createDirectory(path: string): void {
  try {
    mkdirSync(path, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
  }
}

/** The directory exists (created if needed) and a file can be written in it. */
export function checkWritableDirectory(variable: string, path: string): void {
  try {
    makeDirectory(path);
    accessSync(path, constants.W_OK | constants.X_OK);
    // access() says yes to root everywhere; a real write also catches read-only mounts.
    const probe = join(path, `.kiln-write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new ConfigError(`${variable} ${path} is not a writable directory (${reason(error)})`);
  }
}

/** The data directory and every storage shard's directory. */
export function checkDirectories(config: Config): void {
  checkWritableDirectory('KILN_DATA_DIR', config.dataDir);
  for (const shard of config.storages) {
    // The default shard lives in the data dir; any other came from KILN_STORAGES.
    const variable = shard.path === join(config.dataDir, 'repositories', 'default') ? 'KILN_DATA_DIR' : `KILN_STORAGES (shard "${shard.name}")`;
    checkWritableDirectory(variable, shard.path);
  }
}

/** Bind the address for a moment, so a port in use stops `kiln serve` before it migrates or creates root. */
export function checkListenAddress(config: Config): Promise<void> {
  return checkPort(config.host, config.port, 'KILN_PORT');
}

/**
 * KILN_SSH_PORT: a busy port that was set explicitly stops Kiln like KILN_PORT's; the default one
 * (2222) only means no SSH server here, which serve says and goes on (false).
 */
export async function checkSshListenAddress(config: Config): Promise<boolean> {
  if (config.sshPort === null) return false;
  try {
    await checkPort(config.host, config.sshPort, 'KILN_SSH_PORT');
    return true;
  } catch (error) {
    if (config.sshPortExplicit) throw error;
    return false;
  }
}

function checkPort(host: string, port: number, variable: 'KILN_PORT' | 'KILN_SSH_PORT'): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      switch (error.code) {
        case 'EADDRINUSE':
          return reject(new ConfigError(`${variable} ${port} is already in use on KILN_HOST ${host} (another process listens on ${where})`));
        case 'EACCES':
          return reject(new ConfigError(`${variable} ${port} needs privileges this process lacks (ports below 1024)`));
        case 'EADDRNOTAVAIL':
          return reject(new ConfigError(`KILN_HOST ${host} is not an address of this machine`));
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return reject(new ConfigError(`KILN_HOST ${host} does not resolve to an address`));
        default:
          return reject(new ConfigError(`KILN_HOST ${host} / ${variable} ${port} cannot be listened on (${error.code ?? error.message})`));
      }
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}
