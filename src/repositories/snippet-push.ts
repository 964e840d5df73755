// The git side of a push to a snippet's repository (GitLab's SnippetCheck, PushFileCountCheck and the
// snippet's size check, with their messages): asked by the pre-receive hook with the pushed objects
// still in quarantine. Only `main` may move (GitLab: the snippet's default branch), never be created
// anew beside another branch or deleted; no tags; the new tree holds 1 to `maxFiles` files whose
// bytes together stay within `maxBytes` (snippet_size_limit). A file that is not UTF-8 text, or holds
// a NUL byte, is binary: taken as GitLab takes it, its bytes base64-encoded for the database.
import { gitCall } from './git.js';
import { humanSize } from './lfs/lfs-objects.js';
import { quarantineEnv, type Quarantine } from './protected-branches/check-push.js';
import type { RefUpdate } from './protected-branches/branch-check.js';
import { ZERO_OID } from './repository-api/ref-names.js';
import { SNIPPET_BRANCH } from './snippet-repository.js';

export const SNIPPET_PUSH_MESSAGES = {
  createDelete: 'You can not create or delete branches.',
  atLeastOne: 'The repository must contain at least 1 file.',
  atMost: (limit: number) => `The repository can contain at most ${limit} file(s).`,
  tooLarge: (limit: number) => `Your push to this repository would cause it to exceed the size limit of ${humanSize(limit)} so it has been rejected. Please contact your GitLab administrator for more information.`,
  notFile: (path: string) => `${path}: a snippet holds plain files only (no submodules or symbolic links).`,
} as const;

export interface SnippetLimits {
  maxFiles: number;
  maxBytes: number;
}

interface TreeEntry {
  mode: string;
  type: string;
  id: string;
  size: number;
  path: string;
}

async function treeOf(repoPath: string, commit: string, env: Record<string, string>): Promise<TreeEntry[]> {
  const listed = await gitCall(repoPath, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit], { env });
  if (listed.code !== 0) throw new Error(`git ls-tree failed: ${listed.stderr.trim()}`);
  return listed.stdout.toString('utf8').split('\0').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [mode, type, id, size] = line.slice(0, tab).split(/\s+/);
    return { mode, type, id, size: Number(size), path: line.slice(tab + 1) };
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function asText(content: Buffer): string | null {
  if (content.includes(0)) return null;
  try {
    return strictUtf8.decode(content);
  } catch {
    return null;
  }
}

/** A file as a snippet keeps it: its text, or a binary file's bytes in base64. */
export interface SnippetTreeFile {
  path: string;
  content: string;
  encoding: 'text' | 'base64';
}

async function blobFile(repoPath: string, id: string, env: Record<string, string>): Promise<Omit<SnippetTreeFile, 'path'>> {
  const read = await gitCall(repoPath, ['cat-file', 'blob', id], { env });
  if (read.code !== 0) throw new Error(`git cat-file failed: ${read.stderr.trim()}`);
  const text = asText(read.stdout);
  return text === null ? { content: read.stdout.toString('base64'), encoding: 'base64' } : { content: text, encoding: 'text' };
}

/** The files of `commit`'s tree as a snippet holds them, or the refusal of that tree. */
async function snippetTree(repoPath: string, commit: string, limits: SnippetLimits, env: Record<string, string>): Promise<{ files: SnippetTreeFile[] } | { refusal: string }> {
  const entries = await treeOf(repoPath, commit, env);
  if (entries.length === 0) return { refusal: SNIPPET_PUSH_MESSAGES.atLeastOne };
  if (entries.length > limits.maxFiles) return { refusal: SNIPPET_PUSH_MESSAGES.atMost(limits.maxFiles) };
  const odd = entries.find((entry) => entry.type !== 'blob' || (entry.mode !== '100644' && entry.mode !== '100755'));
  if (odd) return { refusal: SNIPPET_PUSH_MESSAGES.notFile(odd.path) };
  if (entries.reduce((sum, entry) => sum + entry.size, 0) > limits.maxBytes) return { refusal: SNIPPET_PUSH_MESSAGES.tooLarge(limits.maxBytes) };
  const files: SnippetTreeFile[] = [];
  for (const entry of entries) files.push({ path: entry.path, ...(await blobFile(repoPath, entry.id, env)) });
  return { files };
}

/** The refusal of a push's ref updates to a snippet's repository, or null to let them in. */
export async function checkSnippetPush(repoPath: string, quarantine: Quarantine, updates: readonly RefUpdate[], limits: SnippetLimits): Promise<string | null> {
  const env = quarantineEnv(quarantine);
  for (const update of updates) {
    // Creating `main` is allowed (a repository emptied by hand); any other ref is a creation or a
    // deletion GitLab refuses, as is deleting `main`.
    if (update.ref !== `refs/heads/${SNIPPET_BRANCH}` || update.newId === ZERO_OID) return SNIPPET_PUSH_MESSAGES.createDelete;
    const tree = await snippetTree(repoPath, update.newId, limits, env);
    if ('refusal' in tree) return tree.refusal;
  }
  return null;
}

/** The files on the snippet repository's `main` (checked when they were pushed), or null when it has no commit. */
export async function snippetBranchFiles(repoPath: string): Promise<SnippetTreeFile[] | null> {
  const head = await gitCall(repoPath, ['rev-parse', '--verify', '--quiet', `refs/heads/${SNIPPET_BRANCH}^{commit}`]);
  if (head.code !== 0) return null;
  const tree = await snippetTree(repoPath, head.stdout.toString().trim(), { maxFiles: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }, {});
  return 'files' in tree ? tree.files : null;
}
