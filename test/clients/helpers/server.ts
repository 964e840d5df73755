// Starts a real `kiln serve` child process on a free loopback port, on SQLite in a temporary data
// directory (a test that needs PostgreSQL passes KILN_DATABASE_URL in `env`, as the alert race test does), with a known root
// password and root token, and stops it afterwards. Needs `npm run build` first (dist/src/main.js).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';

export const ROOT_PASSWORD = 'root-password-for-clients';

export interface KilnProcess {
  url: string;
  port: number;
  /** The SSH server's port (KILN_SSH_PORT, a free one unless `env` names it; 0 when `env` turns it off). */
  sshPort: number;
  dataDir: string;
  rootToken: string;
  child: ChildProcess;
  output(): string;
  /** The output once it matches `pattern` (or after the timeout): lines logged after listening. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL, as a crash would. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const ROOT = new URL('../../../', import.meta.url).pathname;
export const MAIN = join(ROOT, 'dist', 'src', 'main.js');

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
  rootToken?: string;
}

export async function startKilnProcess(options: StartOptions = {}): Promise<KilnProcess> {
  if (!existsSync(MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` before the client suite');
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kiln-client-'));
  const rootToken = options.rootToken ?? `glpat-${randomBytes(12).toString('hex')}`;
  // Files run side by side, and a port freePort() found free can be taken by another file's server
  // before this one binds it. Then that server would answer the readiness probe (and this file's
  // requests, with 401s); so the server must also know this root token, and a start that lost its
  // port is tried again on other ports.
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const sshPort = options.env?.KILN_SSH_PORT === 'off' ? 0 : Number(options.env?.KILN_SSH_PORT ?? (await freePort()));
    const started = await launch({ port, sshPort, dataDir, rootToken, env: options.env });
    if (!('lostPort' in started)) {
      const stop = async () => {
        await started.stop();
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      };
      return { ...started, port, sshPort, dataDir, rootToken, stop };
    }
    // Other ports help only where this helper chose them: not for a port or SSH port the caller named.
    const callerSshPort = options.env?.KILN_SSH_PORT;
    const chosenByCaller = options.port !== undefined || (callerSshPort !== undefined && callerSshPort !== 'off');
    if (chosenByCaller || attempt === 3) throw new Error(`kiln exited with 2 (attempt ${attempt}):\n${started.lostPort}`);
  }
}

type Launched = Omit<KilnProcess, 'port' | 'sshPort' | 'dataDir' | 'rootToken'>;

/** `kiln serve` on these ports; `lostPort` (its output) when another process holds one (it stopped, saying so). */
async function launch(options: { port: number; sshPort: number; dataDir: string; rootToken: string; env?: Record<string, string> }): Promise<Launched | { lostPort: string }> {
  const { port, sshPort, dataDir, rootToken } = options;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      KILN_HOST: '127.0.0.1',
      KILN_PORT: String(port),
      KILN_SSH_PORT: String(sshPort),
      KILN_DATA_DIR: dataDir,
      KILN_INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      KILN_INITIAL_ROOT_TOKEN: rootToken,
      KILN_LOG_LEVEL: 'warn',
      KILN_WORKER_POLL_MS: '50',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // Generous: a loaded machine (a whole suite beside it) has taken more than 30 s to start a process.
  const deadline = Date.now() + 120_000;
  for (let ready = false; !ready; ) {
    if (child.exitCode !== null) {
      if (child.exitCode === 2 && /is already in use on KILN_HOST/.test(output)) return { lostPort: output };
      throw new Error(`kiln exited with ${child.exitCode}:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`kiln serve was not ready within 120 s:\n${output}`);
    }
    try {
      // Ready, and this process's server: another one does not know this root token (401).
      ready = (await fetch(`${url}/-/readiness`)).ok && (await fetch(`${url}/api/v4/user`, { headers: { 'private-token': rootToken } })).status !== 401;
    } catch {
      /* not listening yet */
    }
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    output: () => output,
    async waitForOutput(pattern: RegExp, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (!pattern.test(output) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      return output;
    },
    async kill9() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A JSON API call as root (or with another token). */
export async function apiCall(kiln: KilnProcess, method: string, path: string, body?: unknown, token = kiln.rootToken): Promise<any> {
  const response = await fetch(`${kiln.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
