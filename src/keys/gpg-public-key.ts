// Reads an armored OpenPGP public key with Debian's gpg, in a scratch home directory made for the one
// call and removed after it (`--import-options show-only` imports nothing): the primary key's id and
// fingerprint, its subkeys', and its user ids (name and e-mail). Nothing of the text reaches a shell.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GpgUserId {
  name: string;
  /** Lower-case. */
  email: string;
}

export interface GpgPublicKey {
  primaryKeyid: string;
  fingerprint: string;
  emails: string[];
  userIds: GpgUserId[];
  subkeys: { keyid: string; fingerprint: string }[];
}

function runGpg(home: string, input: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile('gpg', ['--batch', '--no-tty', '--homedir', home, '--with-colons', '--import-options', 'show-only', '--import'], { timeout: 10_000, maxBuffer: 1024 * 1024 }, (error, stdout) =>
      resolve(error ? null : stdout),
    );
    child.stdin?.on('error', () => resolve(null));
    child.stdin?.end(input);
  });
}

export async function readGpgPublicKey(text: string): Promise<GpgPublicKey | null> {
  const home = await mkdtemp(join(tmpdir(), 'kiln-gpg-'));
  try {
    const output = await runGpg(home, text);
    if (!output) return null;
    const lines = output.split('\n').map((line) => line.split(':'));
    const primary = lines.findIndex((fields) => fields[0] === 'pub');
    if (primary < 0 || lines.filter((fields) => fields[0] === 'pub').length !== 1) return null;
    const fingerprint = lines.slice(primary).find((fields) => fields[0] === 'fpr')?.[9];
    if (!fingerprint) return null;
    // gpg escapes a uid's colons and bytes above 127 as \xNN.
    const unescape = (text: string) => Buffer.from(text.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
    const userIds = lines
      .filter((fields) => fields[0] === 'uid')
      .map((fields) => /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>/.exec(unescape(fields[9] ?? '')))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ name: match[1].replace(/\s*\(.*\)$/, ''), email: match[2].toLowerCase() }));
    // Each `sub` line is followed by its `fpr` line.
    const subkeys = lines.flatMap((fields, index) => (fields[0] === 'sub' && lines[index + 1]?.[0] === 'fpr' ? [{ keyid: fields[4], fingerprint: lines[index + 1][9] }] : []));
    return { primaryKeyid: lines[primary][4], fingerprint, emails: userIds.map((uid) => uid.email), userIds, subkeys };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
