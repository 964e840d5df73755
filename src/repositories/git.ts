// The system git, run without a shell and with a minimal environment (no secrets of ours leak into
// it), started on a git thread (git-threads.ts) so that no fork holds the event loop.
import { GIT_ENV } from './git-env.js';
import { gitThreads, type ThreadProcess } from './git-threads.js';

export { GIT_ENV };

export class GitError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
  }
}

/** Runs a command (git, cp) on a git thread; a non-zero exit is an error carrying what it printed. */
export async function runCommand(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const outcome = await gitThreads().run(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  if (outcome.code !== 0) throw new GitError(`${file} ${args.join(' ')} failed: ${outcome.stderr.trim() || outcome.error}`, outcome.stderr);
  return outcome.stdout.toString();
}

export function git(repoPath: string, args: string[]): Promise<string> {
  return runCommand('git', ['--git-dir', repoPath, ...args]);
}

/** Every ref with its object id, sorted by name: the state a push changes and a copy must keep. */
export async function listRefs(repoPath: string): Promise<Map<string, string>> {
  const out = await git(repoPath, ['for-each-ref', '--format=%(objectname) %(refname)']);
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const space = line.indexOf(' ');
    refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

export async function initBare(repoPath: string, defaultBranch: string): Promise<void> {
  await runCommand('git', ['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, repoPath]);
}

export interface GitCall {
  /** Extra environment (GIT_INDEX_FILE, author and committer identities). */
  env?: Record<string, string>;
  /** Written to the command's standard input. */
  input?: string | Buffer;
  /** Killed after this long (its answer is then an error). */
  timeoutMs?: number;
}

/** What a git command printed and how it exited; the caller decides which exit codes are answers. */
export interface GitOutcome {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Run git on a repository with optional input and raw (binary-safe) output. Never throws for a
 * non-zero exit: `git merge-base --is-ancestor` answers 1 for "no", `update-ref` fails when the old
 * value moved, and the callers turn those into answers rather than errors.
 */
export async function gitCall(repoPath: string, args: string[], options: GitCall = {}): Promise<GitOutcome> {
  const outcome = await gitThreads().run('git', ['--git-dir', repoPath, ...args], { ...options, maxBuffer: 256 * 1024 * 1024 });
  if (outcome.code === null) throw new GitError(`git ${args[0]} failed: ${outcome.error}`, outcome.stderr);
  return { code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr };
}

/** Like gitCall, but a non-zero exit is an error: for commands that must succeed. */
export async function gitBytes(repoPath: string, args: string[], options: GitCall = {}): Promise<Buffer> {
  const outcome = await gitCall(repoPath, args, options);
  if (outcome.code !== 0) throw new GitError(`git ${args.join(' ')} failed: ${outcome.stderr.trim()}`, outcome.stderr);
  return outcome.stdout;
}

/** A long-running git command whose output is streamed (archives, logs read until enough); the caller owns the process. */
export function spawnGit(repoPath: string, args: string[]): ThreadProcess {
  return gitThreads().stream('git', ['--git-dir', repoPath, ...args]);
}

/** Closes the long-lived readers of `repoPath` and of the repositories under it: before it is deleted, moved or restored. */
export function closeReaders(repoPath: string): void {
  gitThreads().close(repoPath);
}
