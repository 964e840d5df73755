// A git helper process (git-threads.ts forks them): starts the git processes Kiln asks for, so that
// their fork and exec (synchronous in Node) hold this small process, never Kiln's event loop nor its
// memory, and keeps the repositories' `git cat-file --batch` readers (cat-file.ts). Answers each
// message on its IPC channel by its id; several are in flight at once (the work is the processes',
// not this one's). It ends when Kiln does: the channel closes with the process that forked it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { GIT_ENV } from './git-env.js';
import { CatFilePool } from './cat-file.js';
import type { ThreadRequest, ThreadMessage } from './git-threads.js';

const send = (message: ThreadMessage) => {
  if (process.connected) process.send!(message);
};
process.on('disconnect', () => process.exit(0));
const readers = new CatFilePool((args) => send({ started: args }));
const streams = new Map<number, ChildProcess>();

function run(request: Extract<ThreadRequest, { kind: 'run' }>): void {
  const child = execFile(
    request.file,
    request.args,
    { cwd: request.cwd, env: { ...GIT_ENV, ...request.env }, encoding: 'buffer', maxBuffer: request.maxBuffer, timeout: request.timeoutMs ?? 0 },
    (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      send({ id: request.id, code: typeof code === 'number' ? code : null, stdout, stderr: stderr.toString(), error: error?.message });
    },
  );
  // A command that exits before reading its input closes the pipe: that is its answer, not ours to report.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(request.input === undefined ? '' : Buffer.from(request.input));
}

/** A streamed command: one chunk sent at a time, the next once the event loop has taken it (no unbounded buffering). */
function stream(request: Extract<ThreadRequest, { kind: 'stream' }>): void {
  const child = spawn(request.file, request.args, { env: { ...GIT_ENV, ...request.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  streams.set(request.id, child);
  child.stdout!.on('data', (chunk: Buffer) => {
    child.stdout!.pause();
    send({ id: request.id, chunk });
  });
  child.stderr!.on('data', (chunk: Buffer) => send({ id: request.id, stderrChunk: chunk.toString() }));
  child.on('error', (error) => {
    streams.delete(request.id);
    send({ id: request.id, exit: null, error: error.message });
  });
  child.on('close', (code) => {
    if (!streams.delete(request.id)) return;
    send({ id: request.id, exit: code });
  });
}

process.on('message', (request: ThreadRequest) => {
  switch (request.kind) {
    case 'run':
      return run(request);
    case 'read':
      readers.read(request.repo, request.names, request.maxBytes).then(
        (objects) => send({ id: request.id, objects }),
        (error: Error) => send({ id: request.id, failed: error.message }),
      );
      return;
    case 'stream':
      return stream(request);
    case 'resume':
      streams.get(request.id)?.stdout?.resume();
      return;
    case 'kill': {
      // What it printed and nobody reads is dropped, so the process can end and be reported.
      const child = streams.get(request.id);
      child?.stdout?.removeAllListeners('data').resume();
      child?.kill();
      return;
    }
    case 'close':
      readers.close(request.repo);
      return;
  }
});
