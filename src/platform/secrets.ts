// The data directory's secrets file: generated on first start, like GitLab's secrets.yml. Every node
// of one instance needs the same file; the database keeps its fingerprint (operations/secrets-check.ts).
// It also holds the SSH server's host keys (ed25519 and RSA, OpenSSH's private key format), so that
// every node presents the same host identity and a backup restores it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes, generateKeyPairSync } from 'node:crypto';
import { newEd25519HostKey, newRsaHostKey } from './ssh-host-keys.js';

export interface SshHostKeys {
  ed25519: string;
  rsa: string;
}

export interface InstanceSecrets {
  instanceKey: Buffer; // AES-256-GCM key for values shown again
  sessionKey: Buffer; // HMAC key for CSRF tokens and similar
  signingKeyPem: string; // RS256 private key for OpenID Connect id_tokens
  /** Absent in a file written before Kiln had SSH: added at the next start (secrets-check.ts). */
  sshHostKeys: SshHostKeys | null;
}

interface SecretsFile {
  instance_key: string;
  session_key: string;
  signing_key_pem: string;
  ssh_host_ed25519_key?: string;
  ssh_host_rsa_key?: string;
}

export const SECRETS_FILE = 'secrets.json';

export function secretsPath(dataDir: string): string {
  return join(dataDir, SECRETS_FILE);
}

export function generateSecrets(): InstanceSecrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    instanceKey: randomBytes(32),
    sessionKey: randomBytes(32),
    signingKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    sshHostKeys: null,
  };
}

/** New host keys: ed25519 and RSA 3072 (ssh-keygen's default size), generated off the event loop. */
export async function generateSshHostKeys(): Promise<SshHostKeys> {
  const [ed25519, rsa] = await Promise.all([newEd25519HostKey(), newRsaHostKey(3072)]);
  return { ed25519, rsa };
}

export class SecretsFileError extends Error {}

/** The secrets in `<dataDir>/secrets.json`, or null when there is no such file. */
export function readSecrets(dataDir: string): InstanceSecrets | null {
  const path = secretsPath(dataDir);
  if (!existsSync(path)) return null;
  let file: Partial<SecretsFile>;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as Partial<SecretsFile>;
  } catch (error) {
    throw new SecretsFileError(`${path} is not a readable secrets file (${(error as Error).message})`);
  }
  if (typeof file.instance_key !== 'string' || typeof file.session_key !== 'string' || typeof file.signing_key_pem !== 'string') {
    throw new SecretsFileError(`${path} lacks instance_key, session_key or signing_key_pem`);
  }
  const hostKeys = typeof file.ssh_host_ed25519_key === 'string' && typeof file.ssh_host_rsa_key === 'string' ? { ed25519: file.ssh_host_ed25519_key, rsa: file.ssh_host_rsa_key } : null;
  return {
    instanceKey: Buffer.from(file.instance_key, 'base64'),
    sessionKey: Buffer.from(file.session_key, 'base64'),
    signingKeyPem: file.signing_key_pem,
    sshHostKeys: hostKeys,
  };
}

function fileOf(secrets: InstanceSecrets): SecretsFile {
  const file: SecretsFile = {
    instance_key: secrets.instanceKey.toString('base64'),
    session_key: secrets.sessionKey.toString('base64'),
    signing_key_pem: secrets.signingKeyPem,
  };
  if (secrets.sshHostKeys) {
    file.ssh_host_ed25519_key = secrets.sshHostKeys.ed25519;
    file.ssh_host_rsa_key = secrets.sshHostKeys.rsa;
  }
  return file;
}

/**
 * The file's secrets with host keys added (a file from before Kiln had SSH): written aside and renamed
 * over the file, so a reader never sees half of it; then read back, in case another process on this
 * data directory did the same a moment earlier.
 */
export function addSshHostKeys(dataDir: string, secrets: InstanceSecrets, hostKeys: SshHostKeys): InstanceSecrets {
  const current = readSecrets(dataDir);
  if (current?.sshHostKeys) return current;
  const temporary = `${secretsPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(fileOf({ ...secrets, sshHostKeys: hostKeys }), null, 2), { mode: 0o600 });
  renameSync(temporary, secretsPath(dataDir));
  return readSecrets(dataDir)!;
}

/** New secrets in `<dataDir>/secrets.json` (mode 0600); if another process wrote the file a moment ago, theirs. */
export function createSecrets(dataDir: string, sshHostKeys: SshHostKeys | null = null): InstanceSecrets {
  const secrets = { ...generateSecrets(), sshHostKeys };
  try {
    writeFileSync(secretsPath(dataDir), JSON.stringify(fileOf(secrets), null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecrets(dataDir)!;
    throw error;
  }
  return secrets;
}

export function loadOrCreateSecrets(dataDir: string): InstanceSecrets {
  return readSecrets(dataDir) ?? createSecrets(dataDir);
}

/** A one-way digest of the host keys, recorded in the database as the secrets' is (secrets-check.ts). */
export function sshHostKeysFingerprint(hostKeys: SshHostKeys): string {
  return createHash('sha256').update('kiln ssh host keys fingerprint\0').update(hostKeys.ed25519).update('\0').update(hostKeys.rsa).digest('hex');
}

/**
 * A one-way digest of all three secrets (not the host keys, which came later), stored in the database to recognise the file it was
 * initialised with. It reveals nothing of the keys (each is 256 bits of randomness or more).
 */
export function secretsFingerprint(secrets: InstanceSecrets): string {
  return createHash('sha256')
    .update('kiln secrets fingerprint\0')
    .update(secrets.instanceKey)
    .update('\0')
    .update(secrets.sessionKey)
    .update('\0')
    .update(secrets.signingKeyPem)
    .digest('hex');
}
