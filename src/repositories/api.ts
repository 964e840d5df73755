// What other features may use of repositories: running a command (git, for backups) the way Git
// HTTP runs it. Everything else in this folder is internal.
export { runCommand } from './git.js';
