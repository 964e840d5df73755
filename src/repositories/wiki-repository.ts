// A wiki's repository — a project's (`<project>.wiki.git`, beside the project's: ensure-repository.ts)
// or a group's (`<group>.wiki.git`) — as the wikis feature reads and writes it: created on the first write, read at its HEAD branch (whatever a
// push made it), written by one commit per change whose branch moves only if nobody moved it meanwhile.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ensureRepository, findRepository } from './ensure-repository.js';
import { repositoryPath } from './shards.js';
import { gitBytes, gitCall } from './git.js';
import { writeCommit } from './repository-api/commit-writer.js';
import { userIdentity } from './repository-api/identity.js';
import { filesOf, revList } from './repository-api/git-reads.js';
import { readCommits } from './repository-api/object-reader.js';
import type { CommitObject } from './repository-api/git-objects.js';
import { ZERO_OID } from './repository-api/ref-names.js';
import { whileWritable } from './push-leases.js';
import { GIT_MESSAGES } from './git-messages.js';

export interface WikiFile {
  path: string;
  /** The blob's id. */
  id: string;
}

/** Whose wiki: a project's or a group's (a bare number is a project's). */
export interface WikiOwner {
  type: 'project_wiki' | 'group';
  id: number;
}

const ownerOf = (owner: number | WikiOwner): WikiOwner => (typeof owner === 'number' ? { type: 'project_wiki', id: owner } : owner);

/** The wiki's repository path, or null while it has none (nothing was ever written). */
export async function readableWiki(deps: Deps, owner: number | WikiOwner): Promise<string | null> {
  const { type, id } = ownerOf(owner);
  const row = await findRepository(deps, type, id);
  return row ? repositoryPath(deps.config.storages, row.shard, row.disk_path) : null;
}

export async function writableWiki(deps: Deps, owner: number | WikiOwner): Promise<string> {
  const { type, id } = ownerOf(owner);
  return (await ensureRepository(deps, { type, id, defaultBranch: 'main' })).path;
}

/** The branch HEAD names and the commit it is at (null in an empty wiki). */
export async function wikiHead(repoPath: string): Promise<{ branch: string; commit: string | null }> {
  const symbolic = await gitCall(repoPath, ['symbolic-ref', '-q', 'HEAD']);
  const ref = symbolic.code === 0 ? symbolic.stdout.toString().trim() : 'refs/heads/main';
  const resolved = await gitCall(repoPath, ['rev-parse', '-q', '--verify', `${ref}^{commit}`]);
  return { branch: ref.replace(/^refs\/heads\//, ''), commit: resolved.code === 0 ? resolved.stdout.toString().trim() : null };
}

/** A commit of the wiki by id (a page's `version`), or null. */
export async function wikiCommit(repoPath: string, id: string): Promise<CommitObject | null> {
  if (!/^[0-9a-f]{7,40}$/.test(id)) return null;
  const resolved = await gitCall(repoPath, ['rev-parse', '-q', '--verify', `${id}^{commit}`]);
  if (resolved.code !== 0) return null;
  const full = resolved.stdout.toString().trim();
  return (await readCommits(repoPath, [full])).get(full) ?? null;
}

/** Every file of the wiki at `commit`. */
export async function wikiFiles(repoPath: string, commit: string): Promise<WikiFile[]> {
  return [...(await filesOf(repoPath, commit)).values()].filter((entry) => entry.type === 'blob').map((entry) => ({ path: entry.path, id: entry.id }));
}

export async function wikiBlob(repoPath: string, id: string): Promise<Buffer> {
  return gitBytes(repoPath, ['cat-file', 'blob', id]);
}

/** The commits that changed the file at `path`, newest first. */
export async function wikiHistory(repoPath: string, commit: string, path: string, limit: number): Promise<CommitObject[]> {
  const ids = await revList(repoPath, { revisions: [commit], path, maxCount: limit });
  const commits = await readCommits(repoPath, ids);
  return ids.map((id) => commits.get(id)).filter((found): found is CommitObject => found !== undefined);
}

export class WikiChangedError extends Error {}

/** The wiki is being moved to another storage (its group is read-only meanwhile). */
export class WikiReadOnlyError extends Error {
  constructor() {
    super(GIT_MESSAGES.readOnly);
  }
}

/**
 * Run a write of the wiki. A group's wiki holds a push lease meanwhile, as a git push does, so a
 * storage move that starts waits for it, and a wiki already being moved refuses the write.
 */
export async function whileWikiWritable<T>(deps: Deps, owner: WikiOwner, work: () => Promise<T>): Promise<T> {
  if (owner.type !== 'group') return work();
  return whileWritable(deps, { type: 'group', id: owner.id }, work, () => {
    throw new WikiReadOnlyError();
  });
}

/**
 * One commit of `changes` (a path → its new content, or null to delete it) on the wiki's HEAD branch,
 * authored and committed by `user`. WikiChangedError when the branch moved while this was written.
 */
export async function commitToWiki(deps: Deps, repoPath: string, user: AuthUser, changes: Map<string, Buffer | null>, message: string): Promise<{ id: string; parent: string | null }> {
  const head = await wikiHead(repoPath);
  const parent = head.commit ? (await readCommits(repoPath, [head.commit])).get(head.commit)! : null;
  const identity = await userIdentity(deps, user);
  const planned = new Map([...changes].map(([path, content]) => [path, content === null ? null : { mode: '100644', content }]));
  const id = await writeCommit(repoPath, {
    parent: parent ? { id: parent.id, tree: parent.tree } : null,
    changes: planned,
    message,
    author: identity,
    committer: identity,
    time: Math.floor(deps.clock.now() / 1000),
  });
  const moved = await gitCall(repoPath, ['update-ref', `refs/heads/${head.branch}`, id, head.commit ?? ZERO_OID]);
  if (moved.code !== 0) throw new WikiChangedError('Someone else has edited the page the same time you have.');
  return { id, parent: head.commit };
}
