// The repository's commit-graph with changed-path Bloom filters, as Gitaly keeps it (its housekeeping's
// `commit-graph write --reachable --changed-paths --split`, the chain replaced when it lacks them).
// The graph holds every reachable commit's parents, tree and generation, so a history walk stops
// inflating commit objects; each commit's Bloom filter says which paths it may have changed, so a
// path-limited walk (`git log -- path`, `git blame`, the tree page's last commit per entry) skips
// the commits that did not touch the path without diffing their trees. Measured with callgrind on
// a 6,000-commit history (docs/performance.md): `git log -- <file>` 347 M instructions without a graph,
// 194 M with one, 45 M with its filters; `git blame` of a file 446 M, 359 M, 287 M.
//
// Written incrementally (`--split`): a new layer holds the commits added since the last write, and
// git merges small layers into the one below (each at most half of it), so a write after a push
// costs what the push brought. A graph without the filters (written before Kiln wrote them, or by
// a `git gc` that ran on its own) is replaced whole, since a new layer's filters would cover only
// the new commits. Once the filters exist git keeps writing them, whoever writes next.
import { open, stat, unlink } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../git.js';

/** The chunk ids of the Bloom filters' index and data in a commit-graph file (git's format). */
const BLOOM_CHUNKS = ['BIDX', 'BDAT'];
/** The header (signature, versions, chunk count, base count) and the chunk table's rows. */
const HEADER_BYTES = 8;
const CHUNK_ROW_BYTES = 12;

/** Pure: whether the start of a commit-graph file (its header and chunk table) names the Bloom filter chunks. */
export function hasBloomChunks(start: Buffer): boolean {
  if (start.length < HEADER_BYTES || start.toString('latin1', 0, 4) !== 'CGPH') return false;
  const chunks = start[6];
  const ids = new Set<string>();
  for (let row = 0; row < chunks; row += 1) {
    const at = HEADER_BYTES + row * CHUNK_ROW_BYTES;
    if (at + 4 > start.length) return false;
    ids.add(start.toString('latin1', at, at + 4));
  }
  return BLOOM_CHUNKS.every((id) => ids.has(id));
}

async function fileHasBloomChunks(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    // The header and a chunk table of the most chunks a file can name (its count is one byte).
    const start = Buffer.alloc(HEADER_BYTES + 256 * CHUNK_ROW_BYTES);
    const { bytesRead } = await file.read(start, 0, start.length, 0);
    return hasBloomChunks(start.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/**
 * The files git reads the graph from: `objects/info/commit-graph` when it exists (git reads it before
 * any chain), else the layers `objects/info/commit-graphs/commit-graph-chain` lists.
 */
function graphFiles(repoPath: string): string[] {
  const info = join(repoPath, 'objects', 'info');
  if (existsSync(join(info, 'commit-graph'))) return [join(info, 'commit-graph')];
  const chain = join(info, 'commit-graphs', 'commit-graph-chain');
  if (!existsSync(chain)) return [];
  return readFileSync(chain, 'utf8')
    .split('\n')
    .filter((hash) => /^[0-9a-f]{40,64}$/.test(hash))
    .map((hash) => join(info, 'commit-graphs', `graph-${hash}.graph`));
}

/** Whether the repository has a commit-graph whose every layer carries changed-path Bloom filters. */
export async function hasCommitGraphWithBloomFilters(repoPath: string): Promise<boolean> {
  const files = graphFiles(repoPath);
  if (files.length === 0) return false;
  for (const file of files) {
    if (!existsSync(file) || !(await fileHasBloomChunks(file))) return false;
  }
  return true;
}

/** A lock this old is a writer's that died (a kill, a crash): a write takes seconds, even on a large history. */
export const STALE_LOCK_MS = 60 * 60_000;

/**
 * Removes the commit-graph's lock files left by a writer that died: git never removes another
 * process's lock, so without this every later write, and the job of every later push, would fail
 * on it until someone removed it by hand. A lock younger than STALE_LOCK_MS is a live writer's.
 */
async function removeStaleLocks(repoPath: string): Promise<void> {
  const info = join(repoPath, 'objects', 'info');
  for (const lock of [join(info, 'commit-graph.lock'), join(info, 'commit-graphs', 'commit-graph-chain.lock')]) {
    const found = await stat(lock).catch(() => null);
    if (found && Date.now() - found.mtimeMs > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
  }
}

/**
 * Brings the commit-graph up to the repository's refs: a new layer for the commits since the last
 * write, or the whole chain rewritten as one layer when `replace` is asked (after a repack or a gc,
 * which may have dropped commits the layers name) or when the graph lacks Bloom filters. Two writers
 * at once: git's lock makes the second fail, and its job is retried; a lock left by a writer that
 * died is removed once stale.
 */
export async function writeCommitGraph(repoPath: string, options: { replace?: boolean } = {}): Promise<void> {
  await removeStaleLocks(repoPath);
  const replace = options.replace === true || !(await hasCommitGraphWithBloomFilters(repoPath));
  await git(repoPath, ['commit-graph', 'write', '--reachable', '--changed-paths', replace ? '--split=replace' : '--split']);
}
