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
// Issue 37 (git over SSH): the access decision and the service setup git over HTTP uses, the address
// throttle of failed authentication, and the repository path check.
export { decideGitAccess, GIT_MESSAGES, type GitActor, type GitTarget } from './git-http/git-access.js';
export { prepareGitService, type PreparedGitService } from './git-http/git-service.js';
export { clearGitAuthFailures, gitAuthThrottle, recordGitAuthFailure } from './git-http/throttle.js';
export { cleanPath } from './git-http/serve-git.js';
export { GIT_ENV } from './git.js';
