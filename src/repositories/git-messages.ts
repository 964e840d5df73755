// What git prints when Kiln refuses a fetch or a push, over HTTP and SSH and in the push checks alike
// (kept apart from git-http so the protected-branch checks can name them without importing git-http).
/** The texts git prints as `remote: …` (lib/gitlab/git_access.rb and git_access_wiki.rb, ERROR_MESSAGES). */
export const GIT_MESSAGES = {
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: 'You are not allowed to download code from this project.',
  authDownload: 'You are not allowed to download code.',
  pushCode: 'You are not allowed to push code to this project.',
  authUpload: 'You are not allowed to upload code.',
  writeToWiki: "You are not allowed to write to this project's wiki.",
  downloadWiki: 'You are not allowed to download files from this wiki.',
  deployKeyUpload: 'This deploy key does not have write access to this project.',
  blocked: 'Your account has been blocked.',
  /** Gitlab::Auth::UserAccessDeniedReason for a deactivated account, without the sign-in URL's markup. */
  deactivated: 'Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at',
  readOnly: 'The repository is temporarily read-only. Please try again later.',
} as const;
