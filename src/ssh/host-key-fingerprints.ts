// The fingerprints of the SSH host keys as `ssh-keygen -l` and `ssh -o FingerprintHash=md5` show
// them, for users to compare with what their client prints on first connection.
import type { Deps } from '../platform/deps.js';
import { fingerprintsOf } from '../keys/api.js';

export interface HostKeyFingerprint {
  algorithm: string;
  sha256: string;
  md5: string;
}

/** Loads the SSH library on first use: only this page and the server need it. */
export async function hostKeyFingerprints(deps: Deps): Promise<HostKeyFingerprint[]> {
  const { default: ssh2 } = await import('ssh2');
  const keys = deps.secrets.sshHostKeys;
  if (!keys) return [];
  return [keys.ed25519, keys.rsa].flatMap((text) => {
    const parsed = ssh2.utils.parseKey(text);
    if (parsed instanceof Error) return [];
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    const { md5, sha256 } = fingerprintsOf(key.getPublicSSH());
    return [{ algorithm: key.type, sha256: `SHA256:${sha256}`, md5: `MD5:${md5}` }];
  });
}
