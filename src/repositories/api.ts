// What other features may use of repositories: running a command (git, for backups) the way Git
// HTTP runs it. Everything else in this folder is internal.
export { runCommand } from './git.js';
// Issue 33 (backups as bundles): a new bare repository (git and listRefs are below).
export { initBare } from './git.js';
// Issue 15 (blob search): a project's repository path, null while it has none.
export { readableRepository } from './repository-api/project-repository.js';
// Issue 16 (project overview page): the default branch's README.
export { findReadme, type Readme } from './repository-api/readme-finder.js';
// A folder of the default branch read as configuration (description templates).
export { defaultBranchFolder, type FolderFile } from './repository-api/default-branch-folder.js';
// Issue 15 (commit search): commits by id and GitLab's CommitDetail entity.
export { readCommits } from './repository-api/object-reader.js';
export { commitDetailEntity } from './repository-api/entities.js';
// Issue 34 (merge requests): the git plumbing merge requests build on — repositories by project,
// refs, commits, merge bases, diffs and the commit and diff entities — so that merge requests never
// run a second copy of it.
export { writableRepository, repositoryRefs } from './repository-api/project-repository.js';
export { git, gitBytes, gitCall, listRefs, GitError } from './git.js';
export { findCommit, readBlobWithin } from './repository-api/object-reader.js';
export { diffBetween, isAncestor, mergeBase, revList, EMPTY_TREE } from './repository-api/git-reads.js';
// Issue 34 (commit statuses): the branch a status without `ref` is filed under.
export { refsContaining as refsContainingCommit } from './repository-api/git-reads.js';
export { commitEntity, diffEntity } from './repository-api/entities.js';
export { BRANCH_PREFIX, ZERO_OID, isValidRefName } from './repository-api/ref-names.js';
export type { CommitObject } from './repository-api/git-objects.js';
export type { FileDiff } from './repository-api/diffs.js';
export { canMergeToBranch } from './protected-branches/can-merge.js';
export { canCreateTag } from './protected-branches/can-create-tag.js';
// Issue 35: the one diff view (commit, compare, merge requests' Changes); see diff-view/index.ts.
export { renderDiffView, renderDiffFileBody, diffModeOf, parsePatch, lineCode, type DiffViewOptions, type DiffComments, type DiffLinePosition, type DiffMode } from './diff-view/index.js';
export { pageArray } from './repository-api/list-page.js';
export { moveRef, type RefMove } from './repository-api/move-ref.js';
export { applyChange, testMerge, type TestMerge } from './repository-api/three-way.js';
export { commitTitle } from './record-push-events.js';
export { matchesBranch } from './protected-branches/ref-matcher.js';
// Issue 37 (git over SSH): the access decision and the service setup git over HTTP uses, the address
// throttle of failed authentication, and the repository path check.
export { decideGitAccess, decideOwnedGitAccess, GIT_MESSAGES, type GitActor, type GitTarget } from './git-http/git-access.js';
export { prepareGitService, type PreparedGitService } from './git-http/git-service.js';
export { prepareOwnedGitService } from './git-http/owned-service.js';
export { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from './git-http/throttle.js';
export { cleanPath } from './git-http/serve-git.js';
export { GIT_ENV } from './git.js';
export { writeCommitGraph } from './housekeeping/commit-graph.js';
// Issue 37 (Git LFS): what `git-lfs-authenticate` over SSH answers.
export { lfsSshAuthentication } from './lfs/ssh-authentication.js';
// Issue 37 (LFS objects in backups): where an object's file is, and storing one with its oid checked.
export { objectPath as lfsObjectPath, storeObject as storeLfsObject, OID as LFS_OID, TooLarge as LfsObjectTooLarge } from './lfs/object-store.js';
// Issue 34 (the push's merge request links): what a push prints once its refs moved.
export { repositoryHooks, type RepositoryHooks, type CommitStatusBadge } from './hooks.js';
// Issue 34 (suggestions applied as a commit on the source branch): one commit of file actions, and
// whether the caller may push to a branch (Gitlab::UserAccess#can_push_to_branch?).
export { commitFiles, type CommitFilesInput } from './repository-api/commit-files.js';
// Issue 38 (releases): a release made with a new tag creates it as the tags API does.
export { createTag } from './repository-api/create-tag.js';
export { RepositoryApiError } from './repository-api/errors.js';
export { mayPushToBranch } from './repository-api/branch-rules.js';
// A fork's repository: a hard-linked local clone of the upstream (fork-repository.ts).
export { forkRepository, type ForkRepositoryInput } from './fork-repository.js';
// A file's lines as a numbered, highlighted table (snippet pages show their files so).
export { lineMarkup, lineTable } from './pages/file-lines.js';
// Issue 38 (wikis): a project's wiki repository, read at its HEAD and written one commit at a time.
export { readableWiki, writableWiki, wikiHead, wikiCommit, wikiFiles, wikiBlob, wikiHistory, commitToWiki, WikiChangedError, WikiReadOnlyError, whileWikiWritable, type WikiFile, type WikiOwner } from './wiki-repository.js';
export { gitlabTime } from './repository-api/git-objects.js';
// Issue 38 (snippets kept in git): a snippet's repository, written as a commit of its whole files,
// and git over HTTP for a repository whose owner decides who reads it.
export { commitSnippetFiles, snippetRepository, SNIPPET_BRANCH } from './snippet-repository.js';
export { checkSnippetPush, snippetBranchFiles, type SnippetLimits } from './snippet-push.js';
export { serveOwnedGit, type OwnedGitRepository } from './git-http/serve-git.js';
// Issue 38 (snippet repository storage moves): the moves machinery of group wikis, for snippets.
export { SNIPPET_MOVES, type MoveRow } from './move-kinds.js';
export { scheduleStorageMove } from './schedule-storage-move.js';
export { scheduleBulkStorageMoves } from './schedule-bulk-storage-moves.js';
export { listMovesQuery, findMove, moveRows } from './finder.js';
export { basicStorageMoveEntity } from './entities.js';
export { shardNames } from './shards.js';
