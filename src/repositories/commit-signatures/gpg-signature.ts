// OpenPGP commit signatures, checked with gpgv (GnuPG's verify-only tool) against a keyring file
// holding the one key the signature names. Measured against `git verify-commit` with a temporary
// GNUPGHOME (import the key, then verify: ~0.7–1.3 s on a loaded 2-core machine, and a gpg-agent
// started per home) gpgv twice — once without keys to learn the signer, once with its key — took
// 0.2–0.3 s and starts no agent.
import { runTool, withScratch } from './run-tool.js';

/** The key id (16 upper-case hex digits) a signature says it was made with, or null. */
export async function gpgSignerKeyid(signature: Buffer, payload: Buffer): Promise<string | null> {
  return withScratch({ sig: signature, payload, keyring: Buffer.alloc(0) }, async (path) => {
    const { stdout } = await runTool('gpgv', ['--status-fd', '1', '--keyring', path('keyring'), path('sig'), path('payload')]);
    const errsig = /^\[GNUPG:\] (?:ERRSIG|NO_PUBKEY) ([0-9A-F]{16})\b/m.exec(stdout);
    return errsig?.[1] ?? null;
  });
}

/** An armored key block as the binary packets a keyring file holds (RFC 4880 §6: base64 between the headers and the checksum). */
export function dearmor(armored: string): Buffer | null {
  const match = /-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n([\s\S]*?)-----END PGP PUBLIC KEY BLOCK-----/.exec(armored);
  if (!match) return null;
  const lines = match[1].split(/\r?\n/);
  const blank = lines.findIndex((line) => line.trim() === '');
  const body = lines.slice(blank + 1).filter((line) => line.trim() !== '' && !line.startsWith('='));
  const bytes = Buffer.from(body.join(''), 'base64');
  return bytes.length ? bytes : null;
}

/** Whether `signature` is a good signature of `payload` by the key `armored` holds. */
export async function gpgSignatureValid(armored: string, signature: Buffer, payload: Buffer): Promise<boolean> {
  const keyring = dearmor(armored);
  if (!keyring) return false;
  return withScratch({ sig: signature, payload, keyring }, async (path) => {
    const { code, stdout } = await runTool('gpgv', ['--status-fd', '1', '--keyring', path('keyring'), path('sig'), path('payload')]);
    return code === 0 && /^\[GNUPG:\] GOODSIG /m.test(stdout) && !/^\[GNUPG:\] (BADSIG|EXPKEYSIG|REVKEYSIG|EXPSIG) /m.test(stdout);
  });
}
