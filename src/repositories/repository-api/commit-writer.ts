// Writing a commit without a work tree: the changed blobs are stored, a temporary index starts from
// the parent's tree and takes the changes, and commit-tree records the result. No ref moves here
// (write-ref.ts does that, atomically).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitBytes } from '../git.js';
import type { FileChanges } from './file-actions.js';
import { ZERO_OID } from './ref-names.js';

export interface Identity {
  name: string;
  email: string;
}

/** What git keeps of a name or address: no angle brackets or line breaks (they would end the field). */
export function cleanIdentity(who: Identity): Identity {
  const clean = (text: string) => text.replace(/[<>\n\r\0]/g, '').trim();
  return { name: clean(who.name), email: clean(who.email) };
}

export interface NewCommit {
  parent: { id: string; tree: string } | null;
  changes: FileChanges;
  message: string;
  author: Identity;
  committer: Identity;
  /** Seconds since the epoch; written in UTC, as Gitaly does for a user without a timezone. */
  time: number;
}

export async function storeBlob(repoPath: string, content: Buffer): Promise<string> {
  return (await gitBytes(repoPath, ['hash-object', '-w', '--stdin'], { input: content })).toString().trim();
}

/** `git update-index -z --index-info` records: a file's mode, blob and path, or mode 0 to remove it. */
async function indexRecords(repoPath: string, changes: FileChanges): Promise<string> {
  const records: string[] = [];
  for (const [path, file] of changes) {
    if (!file) {
      records.push(`0 ${ZERO_OID}\t${path}\0`);
      continue;
    }
    const id = file.id ?? (await storeBlob(repoPath, file.content ?? Buffer.alloc(0)));
    records.push(`${file.mode} ${id}\t${path}\0`);
  }
  return records.join('');
}

function identityEnv(prefix: 'AUTHOR' | 'COMMITTER', who: Identity, time: number): Record<string, string> {
  return { [`GIT_${prefix}_NAME`]: who.name, [`GIT_${prefix}_EMAIL`]: who.email, [`GIT_${prefix}_DATE`]: `@${time} +0000` };
}

/** The tree of `base` (a tree id, or none: empty) with `changes` applied, written to the repository. */
export async function writeTree(repoPath: string, base: string | null, changes: FileChanges): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'kiln-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    if (base) await gitBytes(repoPath, ['read-tree', base], { env });
    await gitBytes(repoPath, ['update-index', '-z', '--index-info'], { env, input: await indexRecords(repoPath, changes) });
    return (await gitBytes(repoPath, ['write-tree'], { env })).toString().trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A commit object of `tree` on `parent` (or a root commit). */
export async function commitTree(repoPath: string, tree: string, parent: string | null, commit: Pick<NewCommit, 'message' | 'author' | 'committer' | 'time'>): Promise<string> {
  const parents = parent ? ['-p', parent] : [];
  const output = await gitBytes(repoPath, ['commit-tree', tree, ...parents, '-F', '-'], {
    input: commit.message,
    env: { ...identityEnv('AUTHOR', commit.author, commit.time), ...identityEnv('COMMITTER', commit.committer, commit.time) },
  });
  return output.toString().trim();
}

/** The new commit's id. */
export async function writeCommit(repoPath: string, commit: NewCommit): Promise<string> {
  const tree = await writeTree(repoPath, commit.parent?.tree ?? null, commit.changes);
  return commitTree(repoPath, tree, commit.parent?.id ?? null, commit);
}

/** An annotated tag object for `target` (a commit), as `git tag -a` would write it. */
export async function writeTagObject(repoPath: string, tag: { name: string; target: string; message: string; tagger: Identity; time: number }): Promise<string> {
  const message = tag.message.endsWith('\n') ? tag.message : `${tag.message}\n`;
  const body = `object ${tag.target}\ntype commit\ntag ${tag.name}\ntagger ${tag.tagger.name} <${tag.tagger.email}> ${tag.time} +0000\n\n${message}`;
  return (await gitBytes(repoPath, ['mktag'], { input: body })).toString().trim();
}
