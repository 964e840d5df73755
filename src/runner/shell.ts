// The shell executor: a job's step becomes a bash script that echoes each command (`$ cmd`, in green,
// as GitLab Runner's bash shell does) and runs it under `set -eo pipefail`, so the first failing
// command ends the step and its exit code decides. The script runs in a process group of its own:
// cancel and timeout kill the whole group, not just bash.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';

export interface StepOutcome {
  exitCode: number | null;
  /** Why the step was stopped from outside, if it was. */
  stopped: 'canceled' | 'timeout' | null;
}

/** Bash's ANSI-C quoting, safe for any text. */
export function quoted(text: string): string {
  return `$'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

export function stepScript(commands: string[]): string {
  const lines = ['set -eo pipefail', 'set +o noclobber'];
  for (const command of commands) {
    lines.push(`echo ${quoted(`\u001b[32;1m$ ${command}\u001b[0;m`)}`);
    lines.push(command);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `script` with bash in `cwd`, output to `onOutput`; ends when bash exits, when `cancel`
 * aborts or when `timeoutMs` passes (then the process group is killed).
 */
export async function runStep(input: { script: string; cwd: string; env: Record<string, string>; scriptPath: string; timeoutMs: number; cancel: AbortSignal; onOutput: (text: string) => void }): Promise<StepOutcome> {
  await writeFile(input.scriptPath, input.script, { mode: 0o700 });
  const child = spawn('bash', ['--noprofile', '--norc', input.scriptPath], { cwd: input.cwd, env: input.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8').on('data', input.onOutput);
  child.stderr.setEncoding('utf8').on('data', input.onOutput);
  let stopped: StepOutcome['stopped'] = null;
  const killGroup = (why: 'canceled' | 'timeout') => {
    stopped ??= why;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  };
  const timer = setTimeout(() => killGroup('timeout'), Math.max(0, input.timeoutMs));
  const onCancel = () => killGroup('canceled');
  if (input.cancel.aborted) onCancel();
  else input.cancel.addEventListener('abort', onCancel, { once: true });
  try {
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    });
    return { exitCode, stopped };
  } finally {
    clearTimeout(timer);
    input.cancel.removeEventListener('abort', onCancel);
  }
}
