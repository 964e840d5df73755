// OpenSSH's client against Kiln's SSH server: keys made with ssh-keygen, and git and ssh run with a
// scratch HOME, that key only, and no host key checking (the host key is Kiln's, made per test app).
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SshKeyPair {
  privatePath: string;
  publicKey: string;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string }): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { cwd: options.cwd, env: options.env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A new key pair in `dir` (`ed25519`, or `rsa` with `bits`), without a passphrase. */
export async function sshKeygen(dir: string, name: string, type: 'ed25519' | 'rsa' | 'ecdsa', bits?: number): Promise<SshKeyPair> {
  const privatePath = join(dir, name);
  const result = await run('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `${name}@test`, '-f', privatePath], {});
  if (result.code !== 0) throw new Error(`ssh-keygen failed: ${result.stderr}`);
  return { privatePath, publicKey: readFileSync(`${privatePath}.pub`, 'utf8').trim() };
}

/** The ssh command line git should use (GIT_SSH_COMMAND), with only this key. */
export function sshCommand(key: SshKeyPair | string): string {
  const path = typeof key === 'string' ? key : key.privatePath;
  return `ssh -i ${path} -o IdentitiesOnly=yes -o IdentityAgent=none -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=20`;
}

export function sshClient(home: () => string, port: () => number) {
  const env = (key: SshKeyPair | string, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home(),
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_SSH_COMMAND: sshCommand(key),
    ...extra,
  });
  return {
    url: (path: string) => `ssh://git@127.0.0.1:${port()}/${path}`,
    /** `ssh git@127.0.0.1 -p PORT <command>`. */
    ssh: (key: SshKeyPair | string, command: string[] = [], input?: string) =>
      run('sh', ['-c', `${sshCommand(key)} -p ${port()} git@127.0.0.1 "$@"`, 'ssh', ...command], { env: env(key), input }),
    git: (key: SshKeyPair | string, args: string[], cwd = home(), extra: Record<string, string> = {}) =>
      run('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, env: env(key, extra) }),
  };
}

/** An SSH wire `string`: length-prefixed bytes. */
export function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An RFC 4251 mpint: big-endian, with a zero byte in front when the top bit is set. */
function mpint(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start += 1;
  const trimmed = value.subarray(start);
  return sshString(trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** A new ed25519 public key line (`ssh-ed25519 AAAA… comment`), made with Node's crypto. */
export function ed25519PublicKey(comment = 'test@example'): string {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(Buffer.from(jwk.x!, 'base64url'))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

/** A new RSA public key line of `bits`. */
export function rsaPublicKey(bits: number, comment = 'test@example'): string {
  const jwk = generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshString('ssh-rsa'), mpint(Buffer.from(jwk.e!, 'base64url')), mpint(Buffer.from(jwk.n!, 'base64url'))]);
  return `ssh-rsa ${blob.toString('base64')} ${comment}`;
}
