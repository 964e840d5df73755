// git's SSH signatures (gpg.format=ssh): an armored SSHSIG blob (OpenSSH's PROTOCOL.sshsig) holding
// the signer's public key, the namespace ("git" for commits) and the signature. Its key is read here
// for its SHA-256 fingerprint (how Kiln finds the registered key, as GitLab does); `ssh-keygen -Y
// check-novalidate` then checks the signature against that key. This answers the same as `ssh-keygen
// -Y verify` with an allowed-signers file of the user's keys, without writing one: who the key
// belongs to is the database's answer, not a file's.
import { fingerprintsOf } from '../../keys/api.js';
import { runTool, withScratch } from './run-tool.js';

const MAGIC = 'SSHSIG';

/** The signature's public key as its SHA-256 fingerprint (base64, unpadded, as keys store it), with its namespace; null when it is no SSHSIG blob. */
export function sshSigner(signature: Buffer): { fingerprint: string; namespace: string } | null {
  const match = /-----BEGIN SSH SIGNATURE-----([\s\S]*?)-----END SSH SIGNATURE-----/.exec(signature.toString('latin1'));
  if (!match) return null;
  const blob = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
  if (blob.length < 10 || blob.subarray(0, 6).toString('latin1') !== MAGIC) return null;
  let at = 10; // magic and the uint32 version
  const field = (): Buffer | null => {
    if (at + 4 > blob.length) return null;
    const length = blob.readUInt32BE(at);
    if (at + 4 + length > blob.length) return null;
    const value = blob.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  const publicKey = field();
  const namespace = field();
  if (!publicKey || !namespace || publicKey.length === 0) return null;
  return { fingerprint: fingerprintsOf(publicKey).sha256, namespace: namespace.toString('utf8') };
}

/** Whether the signature is a good one of `payload` in the "git" namespace, by the key it holds. */
export async function sshSignatureValid(signature: Buffer, payload: Buffer): Promise<boolean> {
  return withScratch({ sig: signature }, async (path) => {
    const { code } = await runTool('ssh-keygen', ['-Y', 'check-novalidate', '-n', 'git', '-s', path('sig')], payload);
    return code === 0;
  });
}
