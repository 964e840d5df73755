// The refusals of GitLab's repository services, which the API renders with
// `render_api_error!(message, status)`: `{"message": "<sentence>"}`, mostly 400.

export class RepositoryApiError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** GitLab's `error_code` beside the message, where it gives one (a cherry-pick's `conflict` or `empty`). */
    readonly errorCode?: string,
  ) {
    super(message);
  }
}

/** Commits::CreateService's and Gitaly's sentences, where more than one file uses them. */
export const COMMIT_MESSAGES = {
  notAllowed: 'You are not allowed to push into this branch',
  notOnBranch: 'You can only create or edit files when you are on a branch',
  fileExists: 'A file with this name already exists',
  fileMissing: "A file with this name doesn't exist",
  directoryExists: 'A directory with this name already exists',
  traversal: 'Path cannot include directory traversal',
  emptyPath: 'You must provide a file path',
  /** The compare-and-swap of the branch failed: another write moved it first (Gitlab::Git::CommitError). */
  concurrent: (branch: string) => `Could not update branch ${branch}. Please refresh and try again.`,
  branchExists: (branch: string) => `A branch called '${branch}' already exists. Switch to that branch in order to make changes`,
} as const;
