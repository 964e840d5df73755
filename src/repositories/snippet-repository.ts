// A snippet's git repository (GitLab's `@snippets/…`, one branch `main`): each write of the snippet's
// files becomes a commit whose tree is exactly those files. The snippets feature keeps the files'
// text in its database (what the API and pages read) and writes here after every change; the same
// call brings a repository up to date before a clone (a snippet made before repositories, or a write
// that failed after its database change). A commit only when the tree differs, and the branch moves
// by compare-and-swap, retried when another write moved it first.
import type { Deps } from '../platform/deps.js';
import { ensureRepository } from './ensure-repository.js';
import { findShard } from './shards.js';
import { gitCall, listRefs } from './git.js';
import { cleanIdentity, commitTree, writeTree, type Identity } from './repository-api/commit-writer.js';
import type { FileChanges } from './repository-api/file-actions.js';
import { ZERO_OID } from './repository-api/ref-names.js';
import { whileWritable } from './push-leases.js';

export const SNIPPET_BRANCH = 'main';
const REF = `refs/heads/${SNIPPET_BRANCH}`;
const ATTEMPTS = 5;

export interface SnippetFilesCommit {
  /** A binary file's bytes as a Buffer. */
  files: ReadonlyArray<{ path: string; content: string | Buffer }>;
  message: string;
  author: Identity;
  /** Seconds since the epoch. */
  time: number;
}

/** Where a snippet's repository is (made when missing): the shard's directory and the path below it. */
export async function snippetRepository(deps: Deps, snippetId: number): Promise<{ path: string; shardPath: string; diskPath: string }> {
  const { row, path } = await ensureRepository(deps, { type: 'snippet', id: snippetId, defaultBranch: SNIPPET_BRANCH });
  const shard = findShard(deps.config.storages, row.shard);
  if (!shard) throw new Error(`storage shard "${row.shard}" is not configured`);
  return { path, shardPath: shard.path, diskPath: row.disk_path };
}

/**
 * Commit `files` as the snippet's whole tree on `main`; the new commit, or null when main has them
 * already — or when a storage move holds the repository: the database keeps the files, and the next
 * write or clone after the move commits them (holding a push lease meanwhile, as a push does).
 */
export async function commitSnippetFiles(deps: Deps, snippetId: number, commit: SnippetFilesCommit): Promise<string | null> {
  return whileWritable(deps, { type: 'snippet', id: snippetId }, () => commitNow(deps, snippetId, commit), () => null);
}

async function commitNow(deps: Deps, snippetId: number, commit: SnippetFilesCommit): Promise<string | null> {
  const { path } = await snippetRepository(deps, snippetId);
  const changes: FileChanges = new Map(commit.files.map((file) => [file.path, { mode: '100644', content: typeof file.content === 'string' ? Buffer.from(file.content) : file.content }]));
  const tree = await writeTree(path, null, changes);
  const who = cleanIdentity(commit.author);
  for (let attempt = 1; ; attempt += 1) {
    const head = (await listRefs(path)).get(REF) ?? null;
    if (head && (await gitCall(path, ['rev-parse', `${head}^{tree}`])).stdout.toString().trim() === tree) return null;
    const id = await commitTree(path, tree, head, { message: commit.message, author: who, committer: who, time: commit.time });
    const moved = await gitCall(path, ['update-ref', REF, id, head ?? ZERO_OID]);
    if (moved.code === 0) return id;
    if (attempt >= ATTEMPTS) throw new Error(`the snippet repository's ${REF} kept moving: ${moved.stderr.trim()}`);
  }
}
