// An OpenSSH public key line (`<algorithm> <base64 blob> [comment]`, sshd(8) AUTHORIZED_KEYS FILE
// FORMAT) read into what GitLab's Gitlab::SSHPublicKey knows of it: the key type its restriction
// settings name, the size in bits, and the MD5 and SHA-256 fingerprints of the blob (ssh-keygen -l).
// The blob is read field by field (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709, PROTOCOL.u2f), so a line
// whose blob does not match its algorithm is no key.
import { createHash } from 'node:crypto';

/** GitLab's key types, as its `<type>_key_restriction` settings name them. */
export type KeyType = 'rsa' | 'dsa' | 'ecdsa' | 'ed25519' | 'ecdsa_sk' | 'ed25519_sk';

export interface SshPublicKey {
  algorithm: string;
  type: KeyType;
  bits: number;
  /** The decoded blob: what fingerprints and the SSH server compare. */
  blob: Buffer;
  /** `<algorithm> <base64>`, without the comment. */
  text: string;
  comment: string;
  fingerprintMd5: string;
  /** Unpadded base64 of the SHA-256 digest, without the `SHA256:` prefix (GitLab stores it so). */
  fingerprintSha256: string;
}

const CURVE_BITS: Record<string, number> = { nistp256: 256, nistp384: 384, nistp521: 521 };

const ALGORITHMS: Record<string, KeyType> = {
  'ssh-rsa': 'rsa',
  'ssh-dss': 'dsa',
  'ecdsa-sha2-nistp256': 'ecdsa',
  'ecdsa-sha2-nistp384': 'ecdsa',
  'ecdsa-sha2-nistp521': 'ecdsa',
  'ssh-ed25519': 'ed25519',
  'sk-ecdsa-sha2-nistp256@openssh.com': 'ecdsa_sk',
  'sk-ssh-ed25519@openssh.com': 'ed25519_sk',
};

/** The restriction type of an algorithm name (`ssh-ed25519` → `ed25519`), or null for one Kiln does not take. */
export function keyTypeOf(algorithm: string): KeyType | null {
  return Object.hasOwn(ALGORITHMS, algorithm) ? ALGORITHMS[algorithm] : null;
}

/** Reads RFC 4251 §5 `string`s from a blob; null past its end. */
class BlobReader {
  private offset = 0;
  constructor(private readonly blob: Buffer) {}

  string(): Buffer | null {
    if (this.offset + 4 > this.blob.length) return null;
    const length = this.blob.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (start + length > this.blob.length) return null;
    this.offset = start + length;
    return this.blob.subarray(start, start + length);
  }

  get done(): boolean {
    return this.offset === this.blob.length;
  }
}

/** The bit length of an RFC 4251 mpint (a leading zero byte only marks it positive). */
function mpintBits(value: Buffer): number {
  let start = 0;
  while (start < value.length && value[start] === 0) start += 1;
  if (start === value.length) return 0;
  return (value.length - start - 1) * 8 + (32 - Math.clz32(value[start]));
}

/** The key's size in bits, or null when the blob is not a key of `algorithm`. */
function bitsOf(algorithm: string, type: KeyType, blob: Buffer): number | null {
  const reader = new BlobReader(blob);
  if (reader.string()?.toString('latin1') !== algorithm) return null;
  let bits: number | null;
  if (type === 'rsa') {
    const exponent = reader.string();
    const modulus = reader.string();
    bits = exponent && modulus ? mpintBits(modulus) : null;
  } else if (type === 'dsa') {
    const p = reader.string();
    const fields = [reader.string(), reader.string(), reader.string()];
    bits = p && fields.every(Boolean) ? mpintBits(p) : null;
  } else if (type === 'ecdsa' || type === 'ecdsa_sk') {
    const curve = reader.string()?.toString('latin1') ?? '';
    const point = reader.string();
    const expected = algorithm.replace(/^sk-/, '').replace(/@openssh\.com$/, '').replace('ecdsa-sha2-', '');
    bits = point && curve === expected ? (CURVE_BITS[curve] ?? null) : null;
    if (type === 'ecdsa_sk' && !reader.string()) bits = null;
  } else {
    const point = reader.string();
    bits = point?.length === 32 ? 256 : null;
    if (type === 'ed25519_sk' && !reader.string()) bits = null;
  }
  return bits !== null && bits > 0 && reader.done ? bits : null;
}

export function fingerprintsOf(blob: Buffer): { md5: string; sha256: string } {
  const md5 = createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
  const sha256 = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  return { md5, sha256 };
}

/** GitLab's SSHPublicKey.sanitize: surrounding white space and line breaks (a pasted key wraps) go. */
export function sanitizeKeyText(text: string): string {
  return text.trim().replace(/[\r\n]+/g, '');
}

/** The key of an authorized_keys-style line, or null when it is no key Kiln accepts. */
export function parseSshPublicKey(text: string): SshPublicKey | null {
  const parts = sanitizeKeyText(text).split(/[ \t]+/);
  if (parts.length < 2) return null;
  const [algorithm, encoded] = parts;
  const type = keyTypeOf(algorithm);
  if (!type || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const blob = Buffer.from(encoded, 'base64');
  // Base64 that does not round-trip carries stray bits: not the blob the line claims.
  if (blob.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) return null;
  const bits = bitsOf(algorithm, type, blob);
  if (bits === null) return null;
  const { md5, sha256 } = fingerprintsOf(blob);
  return { algorithm, type, bits, blob, text: `${algorithm} ${encoded}`, comment: parts.slice(2).join(' '), fingerprintMd5: md5, fingerprintSha256: sha256 };
}
