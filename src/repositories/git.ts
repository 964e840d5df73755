// The system git, run without a shell and with a minimal environment (no secrets of ours leak into it).
import { execFile } from 'node:child_process';

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
