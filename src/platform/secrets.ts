// The data directory's secrets file: generated on first start, like GitLab's secrets.yml.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, generateKeyPairSync } from 'node:crypto';

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

export function generateSecrets(): InstanceSecrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    instanceKey: randomBytes(32),
    sessionKey: randomBytes(32),
    signingKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function loadOrCreateSecrets(dataDir: string): InstanceSecrets {
  const path = join(dataDir, 'secrets.json');
  if (existsSync(path)) {
    const file = JSON.parse(readFileSync(path, 'utf8')) as SecretsFile;
    return {
      instanceKey: Buffer.from(file.instance_key, 'base64'),
      sessionKey: Buffer.from(file.session_key, 'base64'),
      signingKeyPem: file.signing_key_pem,
    };
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = generateSecrets();
  const file: SecretsFile = {
    instance_key: secrets.instanceKey.toString('base64'),
    session_key: secrets.sessionKey.toString('base64'),
    signing_key_pem: secrets.signingKeyPem,
  };
  // 'wx' fails if another node created the file a moment ago; then we read theirs.
  try {
    writeFileSync(path, JSON.stringify(file, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecrets(dataDir);
    throw error;
  }
  return secrets;
}
