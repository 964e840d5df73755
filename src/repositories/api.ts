// What other features may use of repositories: running a command (git, for backups) the way Git
// HTTP runs it. Everything else in this folder is internal.
export { runCommand } from './git.js';
// Issue 15 (blob search): a project's repository path, null while it has none.
export { readableRepository } from './repository-api/project-repository.js';
// Issue 16 (project overview page): the default branch's README.
export { findReadme, type Readme } from './repository-api/readme-finder.js';
// Issue 15 (commit search): commits by id and GitLab's CommitDetail entity.
export { readCommits } from './repository-api/object-reader.js';
export { commitDetailEntity } from './repository-api/entities.js';
// Issue 35: the one diff view (commit, compare, merge requests' Changes); see diff-view/index.ts.
export { renderDiffView, renderDiffFileBody, diffModeOf, parsePatch, lineCode, type DiffViewOptions, type DiffComments, type DiffLinePosition, type DiffMode } from './diff-view/index.js';
