// The data directory's secrets file: generated on first start, like GitLab's secrets.yml. Every node
// of one instance needs the same file; the database keeps its fingerprint (operations/secrets-check.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes, generateKeyPairSync } from 'node:crypto';

export interface InstanceSecrets {
  instanceKey: Buffer; // AES-256-GCM key for values shown again
  sessionKey: Buffer; // HMAC key for CSRF tokens and similar
  signingKeyPem: string; // RS256 private key for OpenID Connect id_tokens
}

interface SecretsFile {
  instance_key: string;
  session_key: string;
  signing_key_pem: string;
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
  };
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
  return {
    instanceKey: Buffer.from(file.instance_key, 'base64'),
    sessionKey: Buffer.from(file.session_key, 'base64'),
    signingKeyPem: file.signing_key_pem,
  };
}

/** New secrets in `<dataDir>/secrets.json` (mode 0600); if another process wrote the file a moment ago, theirs. */
export function createSecrets(dataDir: string): InstanceSecrets {
  const secrets = generateSecrets();
  const file: SecretsFile = {
    instance_key: secrets.instanceKey.toString('base64'),
    session_key: secrets.sessionKey.toString('base64'),
    signing_key_pem: secrets.signingKeyPem,
  };
  try {
    writeFileSync(secretsPath(dataDir), JSON.stringify(file, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecrets(dataDir)!;
    throw error;
  }
  return secrets;
}

export function loadOrCreateSecrets(dataDir: string): InstanceSecrets {
  return readSecrets(dataDir) ?? createSecrets(dataDir);
}

/**
 * A one-way digest of all three secrets, stored in the database to recognise the file it was
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
