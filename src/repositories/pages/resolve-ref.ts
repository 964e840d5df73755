// `<ref>/<path>` of tree, blob, blame, raw and history addresses split as GitLab's ExtractsRef does:
// the longest leading run of segments that names a branch (then a tag) wins, or a commit SHA as the
// first segment. One `for-each-ref` and one object read, whatever the depth of the path; nothing
// from the address reaches git but a name the repository listed or a hexadecimal SHA.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { findCommit } from '../repository-api/object-reader.js';
import type { CommitObject } from '../repository-api/git-objects.js';
import { readableRepository, repositoryRefs } from '../repository-api/project-repository.js';
import { BRANCH_PREFIX, TAG_PREFIX } from '../repository-api/ref-names.js';
import { cleanRepositoryPath } from '../repository-api/tree-entries.js';

export interface ResolvedRef {
  repoPath: string;
  /** Every ref of the repository with its object id. */
  refs: Map<string, string>;
  /** As the address names it: a branch, a tag or a SHA. */
  ref: string;
  kind: 'branch' | 'tag' | 'commit';
  commit: CommitObject;
  /** The path below the ref, cleaned ('' for the root). */
  path: string;
}

const SHA = /^[0-9a-fA-F]{7,40}$/;

/** Pure: the ref and path an address names, given the repository's refs; null when none. */
export function splitRef(refs: ReadonlyMap<string, string>, rest: string): { ref: string; kind: 'branch' | 'tag' | 'commit'; target: string; path: string } | null {
  const segments = rest.split('/');
  for (let count = segments.length; count > 0; count -= 1) {
    const name = segments.slice(0, count).join('/');
    const path = segments.slice(count).join('/');
    const branch = refs.get(`${BRANCH_PREFIX}${name}`);
    if (branch) return { ref: name, kind: 'branch', target: branch, path };
    const tag = refs.get(`${TAG_PREFIX}${name}`);
    if (tag) return { ref: name, kind: 'tag', target: tag, path };
  }
  if (SHA.test(segments[0])) return { ref: segments[0], kind: 'commit', target: segments[0].toLowerCase(), path: segments.slice(1).join('/') };
  return null;
}

export async function resolveRef(deps: Deps, access: ProjectAccess, rest: string): Promise<ResolvedRef> {
  const repoPath = await readableRepository(deps, access.project);
  if (!repoPath) throw new NotFoundError('Repository');
  const refs = await repositoryRefs(repoPath);
  const split = splitRef(refs, rest);
  const path = split ? cleanRepositoryPath(split.path) : null;
  const commit = split && path !== null ? await findCommit(repoPath, split.target) : null;
  if (!split || path === null || !commit) throw new NotFoundError('Ref');
  return { repoPath, refs, ref: split.ref, kind: split.kind, commit, path };
}
