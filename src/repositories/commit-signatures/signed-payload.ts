// A signed commit as git signs it: the signature is the `gpgsig` header (continued on lines starting
// with a space), and what was signed is the commit object without that header, byte for byte
// (git's parse_signed_commit). The armour says which kind: OpenPGP or an SSH signature (SSHSIG).
// Anything else (an X.509 signature, a header without armour) is left unverified as "no signature".

export interface SignedCommit {
  type: 'PGP' | 'SSH';
  signature: Buffer;
  payload: Buffer;
}

const ARMOUR: Record<string, SignedCommit['type']> = {
  '-----BEGIN PGP SIGNATURE-----': 'PGP',
  '-----BEGIN SSH SIGNATURE-----': 'SSH',
};

export function signedCommit(raw: Buffer): SignedCommit | null {
  // latin1 maps bytes to characters one to one, so the payload is rebuilt exactly.
  const text = raw.toString('latin1');
  const end = text.indexOf('\n\n');
  if (end < 0) return null;
  const lines = text.slice(0, end).split('\n');
  const kept: string[] = [];
  const signature: string[] = [];
  let inSignature = false;
  for (const line of lines) {
    if (inSignature && line.startsWith(' ')) {
      signature.push(line.slice(1));
      continue;
    }
    inSignature = false;
    if (line.startsWith('gpgsig ') && signature.length === 0) {
      inSignature = true;
      signature.push(line.slice('gpgsig '.length));
      continue;
    }
    kept.push(line);
  }
  const type = ARMOUR[signature[0]?.trim() ?? ''];
  if (!type) return null;
  return {
    type,
    signature: Buffer.from(`${signature.join('\n')}\n`, 'latin1'),
    payload: Buffer.from(`${kept.join('\n')}${text.slice(end)}`, 'latin1'),
  };
}
