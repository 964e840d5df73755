// Reads an armored OpenPGP public key with Debian's gpg, in a scratch home directory made for the one
// call and removed after it (`--import-options show-only` imports nothing): the primary key's id and
// fingerprint and the e-mails of its user ids. Nothing of the text reaches a shell.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GpgPublicKey {
  primaryKeyid: string;
  fingerprint: string;
  emails: string[];
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
    const emails = lines
      .filter((fields) => fields[0] === 'uid')
      .map((fields) => /<([^<>\s]+@[^<>\s]+)>/.exec(fields[9] ?? '')?.[1]?.toLowerCase())
      .filter((email): email is string => email !== undefined);
    return { primaryKeyid: lines[primary][4], fingerprint, emails };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
