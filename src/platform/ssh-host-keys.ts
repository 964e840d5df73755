// New SSH host keys in the formats the ssh2 library reads: RSA as PKCS#1 PEM (Node exports it as
// is), ed25519 in OpenSSH's own private key format (PROTOCOL.key: "openssh-key-v1", no cipher), which
// Node cannot export. ssh2's own generator is not used: it drops leading zero bytes of an ed25519
// public key (one key in 256 comes out 31 bytes long and unusable).
import { generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** An SSH wire `string` (RFC 4251 §5): length-prefixed bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/** The 32-byte seed and public key of an ed25519 KeyObject pair, from their JWK (RFC 8037). */
function ed25519Parts(privateKey: KeyObject): { seed: Buffer; publicKey: Buffer } {
  const jwk = privateKey.export({ format: 'jwk' });
  return { seed: Buffer.from(jwk.d!, 'base64url'), publicKey: Buffer.from(jwk.x!, 'base64url') };
}

export function openSshEd25519PrivateKey(privateKey: KeyObject, comment = ''): string {
  const { seed, publicKey } = ed25519Parts(privateKey);
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(publicKey)]);
  const check = randomBytes(4);
  let section = Buffer.concat([check, check, sshString('ssh-ed25519'), sshString(publicKey), sshString(Buffer.concat([seed, publicKey])), sshString(comment)]);
  // Padded to the cipher's block size (8 for "none") with the bytes 1, 2, 3, …
  const padding = Buffer.from(Array.from({ length: (8 - (section.length % 8)) % 8 }, (_, index) => index + 1));
  section = Buffer.concat([section, padding]);
  const body = Buffer.concat([Buffer.from('openssh-key-v1\0'), sshString('none'), sshString('none'), sshString(''), uint32(1), sshString(publicBlob), sshString(section)]);
  const lines = body.toString('base64').match(/.{1,70}/g)!.join('\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

export async function newEd25519HostKey(): Promise<string> {
  const { privateKey } = await generate('ed25519');
  return openSshEd25519PrivateKey(privateKey);
}

export async function newRsaHostKey(bits = 3072): Promise<string> {
  const { privateKey } = await generate('rsa', { modulusLength: bits });
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}
