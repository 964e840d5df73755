// Runs a Python snippet with Debian's python3-gitlab (/usr/bin/python3, not a pyenv interpreter).
import { execFile } from 'node:child_process';

export const SYSTEM_PYTHON = '/usr/bin/python3';

export function runPython(script: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(SYSTEM_PYTHON, ['-c', script], { env: { PATH: '/usr/bin:/bin', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`python failed: ${error.message}\n${stderr}\n${stdout}`));
      else resolve({ stdout, stderr });
    });
  });
}
