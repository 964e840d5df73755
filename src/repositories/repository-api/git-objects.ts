// Commit and tag objects as git stores them (git-cat-file(1) raw content), parsed into what the
// entities need, and the dates written as GitLab writes them: ISO 8601 with milliseconds in the
// signer's own offset (`2026-11-22T09:00:00.000+01:00`), as Gitlab::Git::Commit keeps the timezone.

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  seconds: number;
  /** The signer's offset as git writes it, `+0100`. */
  offset: string;
}

export interface CommitObject {
  id: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export interface TagObject {
  id: string;
  /** The object the tag points at and its type. */
  object: string;
  type: string;
  name: string;
  tagger: Signature | null;
  message: string;
}

const UNKNOWN: Signature = { name: '', email: '', seconds: 0, offset: '+0000' };

/** `Name <email> 1700000000 +0100`, read from the right so names with `<` still parse. */
export function parseSignature(text: string): Signature {
  const match = /^(.*?) ?<([^<>]*)> (-?\d+) ([+-]\d{4})$/.exec(text);
  if (!match) return { ...UNKNOWN, name: text };
  return { name: match[1], email: match[2], seconds: Number(match[3]), offset: match[4] };
}

/** Header lines up to the blank line (continuation lines, as in gpgsig, start with a space), then the message. */
function splitObject(raw: Buffer): { headers: [string, string][]; message: string } {
  const text = raw.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? '' : text.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length > 0) {
      headers[headers.length - 1][1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(' ');
    headers.push(space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message };
}

export function parseCommitObject(id: string, raw: Buffer): CommitObject {
  const { headers, message } = splitObject(raw);
  const value = (key: string) => headers.find(([name]) => name === key)?.[1];
  const author = value('author');
  const committer = value('committer');
  return {
    id,
    tree: value('tree') ?? '',
    parents: headers.filter(([name]) => name === 'parent').map(([, parent]) => parent),
    author: author === undefined ? UNKNOWN : parseSignature(author),
    committer: committer === undefined ? UNKNOWN : parseSignature(committer),
    message,
  };
}

export function parseTagObject(id: string, raw: Buffer): TagObject {
  const { headers, message } = splitObject(raw);
  const value = (key: string) => headers.find(([name]) => name === key)?.[1];
  const tagger = value('tagger');
  // A signature block after the message is not part of what GitLab shows.
  const signature = message.indexOf('-----BEGIN PGP SIGNATURE-----');
  return {
    id,
    object: value('object') ?? '',
    type: value('type') ?? '',
    name: value('tag') ?? '',
    tagger: tagger === undefined ? null : parseSignature(tagger),
    message: signature < 0 ? message : message.slice(0, signature),
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The signature's moment in its own offset, `2026-11-22T09:00:00.000+01:00`. */
export function gitlabTime(signature: Signature): string {
  const sign = signature.offset.startsWith('-') ? -1 : 1;
  const hours = Number(signature.offset.slice(1, 3));
  const minutes = Number(signature.offset.slice(3, 5));
  const shifted = new Date((signature.seconds + sign * (hours * 3600 + minutes * 60)) * 1000);
  const date = `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  const time = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}.000`;
  return `${date}T${time}${sign < 0 ? '-' : '+'}${pad(hours)}:${pad(minutes)}`;
}

/** The first line of a message: GitLab's `full_title`, the entity's `title`. */
export function fullTitle(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.trimEnd();
}

/**
 * Git trailers (`Signed-off-by: …`) of a message: the last paragraph when every line of it is a
 * `Key: value` line, as `git interpret-trailers --parse` reads them for a well-formed message.
 */
export function parseTrailers(message: string): Record<string, string> {
  const paragraphs = message.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return {};
  const lines = paragraphs[paragraphs.length - 1].split('\n');
  const trailers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (!match) return {};
    trailers[match[1]] = match[2];
  }
  return trailers;
}
