// Protected branches are enforced in receive-pack's pre-receive hook: after the pack has arrived (a
// force push is only known once the new commits exist) and before any ref moves, as GitLab's hooks
// do. The hook is a short shell script that Kiln writes into its data directory and names through
// `core.hooksPath` in the environment of `git http-backend`. It hands the ref updates to the Kiln
// process serving that push on file descriptor 3, a socket pair of that one request which git passes
// down through http-backend and receive-pack, and prints the answer, which the client shows as
// `remote: …` lines. Run any other way (no descriptor 3), the hook fails and git refuses the push.
// Once the refs moved, the post-receive hook asks the same process, on the same descriptor, what to
// print (the merge request links GitLab's post-receive prints); it never fails a push.
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

const POST_HOOK_SCRIPT = `#!/bin/sh
# Written by Kiln (src/repositories/protected-branches/pre-receive-hook.ts): tells the Kiln process
# serving this push, on file descriptor 3, which refs moved, and prints what it answers.
{
  printf 'hook post-receive\\n'
  while read -r old new ref; do printf 'update %s %s %s\\n' "$old" "$new" "$ref"; done
  printf 'end\\n'
} >&3 2>/dev/null || exit 0
while IFS= read -r line <&3; do
  case "$line" in
    'message '*) printf '%s\\n' "\${line#message }" >&2 ;;
    *) exit 0 ;;
  esac
done
exit 0
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
      for (const [name, script] of [['pre-receive', HOOK_SCRIPT], ['post-receive', POST_HOOK_SCRIPT]]) {
        const temporary = join(dir, `.${name}-${process.pid}`);
        await writeFile(temporary, script, { mode: 0o700 });
        await rename(temporary, join(dir, name));
      }
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
  /** Which hook asks: `pre-receive` (may refuse) or `post-receive` (the refs moved). */
  hook: 'pre-receive' | 'post-receive';
  quarantine: Quarantine;
  updates: RefUpdate[];
}

/** More than a push's ref list can reasonably hold: the peer is not the hook. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export function parseHookRequest(lines: readonly string[]): HookRequest {
  const request: HookRequest = { hook: 'pre-receive', quarantine: { objectDirectory: '', alternateObjectDirectories: '' }, updates: [] };
  for (const line of lines) {
    const space = line.indexOf(' ');
    const [word, rest] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
    if (word === 'hook' && rest === 'post-receive') request.hook = rest;
    else if (word === 'objects') request.quarantine.objectDirectory = rest;
    else if (word === 'alternates') request.quarantine.alternateObjectDirectories = rest;
    else if (word === 'update') {
      const [oldId, newId, ref] = rest.split(' ');
      if (oldId && newId && ref) request.updates.push({ oldId, newId, ref });
    }
  }
  return request;
}

export interface HookAnswers {
  /** The refusal of a pre-receive request (message lines), or null to accept it. */
  decide: (request: HookRequest) => Promise<string | null>;
  /** What to print after the refs moved; a failure prints nothing. */
  after?: (updates: RefUpdate[]) => Promise<string[]>;
}

/**
 * Serve the hooks' questions on `channel`: the pre-receive request up to `end`, answered with the
 * refusal (as message lines) or `accept` — any failure refuses the push —, then, after an accept,
 * the post-receive request, answered with the lines to print and `done`.
 */
export function answerHook(channel: Duplex, answers: HookAnswers, onError: (error: unknown) => void): void {
  let buffered = '';
  let busy = false;
  let closed = false;
  const reply = (lines: string[], end: boolean) => {
    if (closed) return;
    if (end) {
      closed = true;
      channel.end(`${lines.join('\n')}\n`);
    } else channel.write(`${lines.join('\n')}\n`);
  };
  const messages = (text: string[]) => text.flatMap((piece) => piece.split('\n')).map((line) => `message ${line}`);
  const serve = async (request: HookRequest) => {
    if (request.hook === 'post-receive') {
      const printed = answers.after ? await answers.after(request.updates).catch((error: unknown) => (onError(error), [])) : [];
      return reply([...messages(printed), 'done'], true);
    }
    const refusal = await answers.decide(request).catch((error: unknown) => {
      onError(error);
      return 'An error occurred while checking the push. Please try again later.';
    });
    // An accepted push keeps the channel open for its post-receive hook.
    reply(refusal === null ? ['accept'] : [...messages([refusal]), 'reject'], refusal !== null);
  };
  channel.setEncoding('utf8');
  channel.on('error', onError);
  channel.on('data', (chunk: string) => {
    if (busy || closed) return;
    buffered += chunk;
    if (buffered.length > MAX_REQUEST_BYTES) {
      busy = true;
      return reply([...messages(['The push has too many ref updates.']), 'reject'], true);
    }
    // Complete lines only: the last piece has no newline yet.
    const lines = buffered.split('\n').slice(0, -1);
    const end = lines.indexOf('end');
    if (end < 0) return;
    busy = true;
    buffered = '';
    void serve(parseHookRequest(lines.slice(0, end))).finally(() => {
      busy = false;
    });
  });
}
