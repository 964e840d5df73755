// The system git, run without a shell and with a minimal environment (no secrets of ours leak into it).
import { execFile, spawn, type ChildProcess } from 'node:child_process';

export const GIT_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  // Never read the operator's ~/.gitconfig or /etc/gitconfig: behaviour must not depend on them.
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  LANG: 'C',
};

export class GitError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
  }
}

export function runCommand(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd, env: { ...GIT_ENV, ...options.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new GitError(`${file} ${args.join(' ')} failed: ${stderr.trim() || error.message}`, stderr));
      else resolve(stdout);
    });
  });
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
export function gitCall(repoPath: string, args: string[], options: GitCall = {}): Promise<GitOutcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['--git-dir', repoPath, ...args],
      { env: { ...GIT_ENV, ...options.env }, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        if (error && typeof code !== 'number') return reject(new GitError(`git ${args[0]} failed: ${error.message}`, stderr.toString()));
        resolve({ code: code as number, stdout, stderr: stderr.toString() });
      },
    );
    // A command that exits before reading its input closes the pipe: that is its answer, not ours to report.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

/** Like gitCall, but a non-zero exit is an error: for commands that must succeed. */
export async function gitBytes(repoPath: string, args: string[], options: GitCall = {}): Promise<Buffer> {
  const outcome = await gitCall(repoPath, args, options);
  if (outcome.code !== 0) throw new GitError(`git ${args.join(' ')} failed: ${outcome.stderr.trim()}`, outcome.stderr);
  return outcome.stdout;
}

/** A long-running git command whose output is streamed (archives); the caller owns the process. */
export function spawnGit(repoPath: string, args: string[]): ChildProcess {
  return spawn('git', ['--git-dir', repoPath, ...args], { env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}
