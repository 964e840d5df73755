// Three-way merges without a work tree: the test merge of two commits (merge requests' mergeability
// and merge), and the replay of one commit's change onto another commit (a rebase's picks, cherry-pick
// and revert). git 2.39 has no `merge-tree --merge-base`, so a replay merges through a throwaway root
// commit holding the change's "before" tree: `merge-tree --write-tree` then takes it as the merge base.
import { gitBytes, gitCall } from '../git.js';
import { findCommit } from './object-reader.js';

export interface TestMerge {
  /** `git merge-tree` found conflicts (exit 1). */
  conflict: boolean;
  /** The merged tree when there was no conflict. */
  tree: string | null;
  /** Conflicted paths (at most what git lists), for merge_error and the pages. */
  conflictedPaths: string[];
}

/** The three-way merge of two commits at their merge base (git merge-tree --write-tree, git ≥ 2.38). */
export async function testMerge(repoPath: string, ours: string, theirs: string): Promise<TestMerge> {
  const outcome = await gitCall(repoPath, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', ours, theirs]);
  if (outcome.code !== 0 && outcome.code !== 1) throw new Error(`git merge-tree failed: ${outcome.stderr.trim()}`);
  const fields = outcome.stdout.toString().split('\0');
  if (outcome.code === 1) return { conflict: true, tree: null, conflictedPaths: [...new Set(fields.slice(1).filter((path) => path !== ''))] };
  return { conflict: false, tree: fields[0].trim(), conflictedPaths: [] };
}

/** A change as two trees: what it turns `before` into `after` (a commit against its parent, or reversed for a revert). */
export interface TreeChange {
  before: string;
  after: string;
}

// Fixed identities and dates: the scaffolding commits are the same objects every time and never reach a ref.
const SCAFFOLD_ENV = { GIT_AUTHOR_NAME: 'Kiln', GIT_AUTHOR_EMAIL: 'kiln@localhost', GIT_AUTHOR_DATE: '@0 +0000', GIT_COMMITTER_NAME: 'Kiln', GIT_COMMITTER_EMAIL: 'kiln@localhost', GIT_COMMITTER_DATE: '@0 +0000' };

async function scaffold(repoPath: string, tree: string, parents: string[], message: string): Promise<string> {
  return (await gitBytes(repoPath, ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'], { input: message, env: SCAFFOLD_ENV })).toString().trim();
}

/** The tree of `change` applied to the commit `onto`, or null on a conflict. */
export async function applyChange(repoPath: string, onto: string, change: TreeChange): Promise<string | null> {
  const ontoTree = (await findCommit(repoPath, onto))!.tree;
  const base = await scaffold(repoPath, change.before, [], 'base\n');
  const ours = await scaffold(repoPath, ontoTree, [base], 'ours\n');
  const theirs = await scaffold(repoPath, change.after, [base], 'theirs\n');
  const merged = await testMerge(repoPath, ours, theirs);
  return merged.conflict ? null : merged.tree;
}
