// What the repository pages (../pages/) read: the same finders the repository API answers from.
export { findProjectCommit, diffOf, refsOf, listCommits } from './commits-finder.js';
export { findTree, treesFirst } from './tree-finder.js';
export { findFile, isBinary } from './files-finder.js';
export { compareRefs } from './compare.js';
export { readableRepository } from './project-repository.js';
export { findCommit } from './object-reader.js';
export type { FileDiff } from './diffs.js';
export type { CommitObject, Signature } from './git-objects.js';
export type { TreeEntry } from './tree-entries.js';
