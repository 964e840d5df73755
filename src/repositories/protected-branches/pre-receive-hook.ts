// Protected branches are enforced in receive-pack's pre-receive hook: after the pack has arrived (a
// force push is only known once the new commits exist) and before any ref moves, as GitLab's hooks
// do. The hook is a short shell script that Kiln writes into its data directory and names through
// `core.hooksPath` in the environment of `git http-backend`. It hands the ref updates to the Kiln
// process serving that push on file descriptor 3, a socket pair of that one request which git passes
// down through http-backend and receive-pack, and prints the answer, which the client shows as
// `remote: …` lines. Run any other way (no descriptor 3), the hook fails and git refuses the push.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { RefUpdate } from './branch-check.js';
import type { Quarantine } from './check-push.js';

const HOOK_SCRIPT = `#!/bin/sh
# Written by Kiln (src/repositories/protected-branches/pre-receive-hook.ts): asks the Kiln process
# serving this push, on file descriptor 3, whether the ref updates on standard input may go ahead.
{
  printf 'objects %s\\n' "$GIT_OBJECT_DIRECTORY"
  printf 'alternates %s\\n' "$GIT_ALTERNATE_OBJECT_DIRECTORIES"
  while read -r old new ref; do printf 'update %s %s %s\\n' "$old" "$new" "$ref"; done
  printf 'end\\n'
} >&3 || exit 1
while IFS= read -r line <&3; do
  case "$line" in
    'message '*) printf '%s\\n' "\${line#message }" >&2 ;;
    accept) exit 0 ;;
    *) exit 1 ;;
  esac
done
exit 1
`;

const installed = new Map<string, Promise<string>>();

/** The hooks directory under the data directory, with the hook written once per process. */
export function hooksDirectory(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'git-hooks');
  let ready = installed.get(dir);
  if (!ready) {
    ready = (async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Written aside and renamed: a push on another node never runs a half-written hook.
      const temporary = join(dir, `.pre-receive-${process.pid}`);
      await writeFile(temporary, HOOK_SCRIPT, { mode: 0o700 });
      await rename(temporary, join(dir, 'pre-receive'));
      return dir;
    })();
    ready.catch(() => installed.delete(dir));
    installed.set(dir, ready);
  }
  return ready;
}

/** The environment that makes receive-pack run Kiln's hooks (git-config(1), GIT_CONFIG_COUNT). */
export function hookEnvironment(dir: string): Record<string, string> {
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: dir };
}

export interface HookRequest {
  quarantine: Quarantine;
  updates: RefUpdate[];
}

/** More than a push's ref list can reasonably hold: the peer is not the hook. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export function parseHookRequest(lines: readonly string[]): HookRequest {
  const request: HookRequest = { quarantine: { objectDirectory: '', alternateObjectDirectories: '' }, updates: [] };
  for (const line of lines) {
    const space = line.indexOf(' ');
    const [word, rest] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
    if (word === 'objects') request.quarantine.objectDirectory = rest;
    else if (word === 'alternates') request.quarantine.alternateObjectDirectories = rest;
    else if (word === 'update') {
      const [oldId, newId, ref] = rest.split(' ');
      if (oldId && newId && ref) request.updates.push({ oldId, newId, ref });
    }
  }
  return request;
}

/**
 * Serve the hook's one question on `channel`: read its request up to `end`, ask `decide`, and write
 * the refusal (as message lines) or `accept`. Any failure refuses the push.
 */
export function answerHook(channel: Duplex, decide: (request: HookRequest) => Promise<string | null>, onError: (error: unknown) => void): void {
  let buffered = '';
  let asked = false;
  const answer = (refusal: string | null) => {
    const lines = refusal === null ? ['accept'] : [...refusal.split('\n').map((line) => `message ${line}`), 'reject'];
    channel.end(`${lines.join('\n')}\n`);
  };
  channel.setEncoding('utf8');
  channel.on('error', onError);
  channel.on('data', (chunk: string) => {
    if (asked) return;
    buffered += chunk;
    if (buffered.length > MAX_REQUEST_BYTES) {
      asked = true;
      return answer('The push has too many ref updates.');
    }
    // Complete lines only: the last piece has no newline yet.
    const lines = buffered.split('\n').slice(0, -1);
    const end = lines.indexOf('end');
    if (end < 0) return;
    asked = true;
    decide(parseHookRequest(lines.slice(0, end))).then(answer, (error: unknown) => {
      onError(error);
      answer('An error occurred while checking the push. Please try again later.');
    });
  });
}
