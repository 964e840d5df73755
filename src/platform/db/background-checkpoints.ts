// WAL checkpoints on a thread of their own, so that the thread serving requests never waits for the disk.
//
// Why: with synchronous=NORMAL a commit only appends to the WAL, but every checkpoint syncs the WAL
// and the database file. SQLite runs checkpoints in the connection that commits, every 1,000 WAL
// pages by default: under the alert endpoint's load that was ten checkpoints a second, and the event
// loop spent ~6 % of its time blocked in fsync (iowait on the server's core; docs/performance.md).
// A second connection on a worker thread runs PASSIVE checkpoints instead: they copy committed pages
// into the database file and sync it while the main connection goes on writing (a PASSIVE checkpoint
// never takes the writer's lock). The main connection keeps an automatic checkpoint as a backstop,
// at a size the WAL only reaches when the worker cannot keep up (or is gone), and because the WAL
// file only starts over after a checkpoint run by a writer that found everything copied.
//
// A PASSIVE checkpoint never starts the WAL over: only a writer that finds every frame copied does,
// and under a steady stream of commits there is always a newer frame (a WAL of 100 MB after 15 s of
// writes, and multi-second stalls when the writer's backstop checkpoint finally ran). So when the WAL
// file passes WAL_RESTART_BYTES the worker asks the main thread for a quiet moment: the main thread
// holds its writers back (the connection gate, which the query builder and the group commit wait
// at, asynchronously) until no transaction is open, says so, and the worker truncates the WAL
// (`wal_checkpoint(TRUNCATE)`: the few frames not yet copied, a sync, the file cut to nothing), then
// lets the writers go. The event loop never waits on a lock for it; writes wait for a few
// milliseconds; reads through the read cache go on meanwhile.
//
// Durability is unchanged: commits are as durable as before (in the WAL, kill -9 safe), checkpoints
// still sync before and after copying (power-loss consistency), only on another thread.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';
import type { ConnectionGate } from './connection-gate.js';

/** The main connection's own checkpoint, as a backstop: 16,384 pages (64 MiB of WAL at 4 KiB pages). */
export const BACKSTOP_CHECKPOINT_PAGES = 16_384;
/** How often the worker copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** A WAL file larger than this is started over (truncated) in a quiet moment the main thread gives. */
export const WAL_RESTART_BYTES = 16 * 1024 * 1024;
/** How long the worker's truncation waits for readers (of other processes) before it gives up until next time. */
export const RESTART_WAIT_MS = 100;
/** The writers are let go after this even if the worker did not say it is done (it died, say). */
const QUIET_LIMIT_MS = 2_000;

// The worker's whole program, evaluated as CommonJS (no file to locate, built or not). It opens
// the same database file with the same driver and checkpoints on a timer until told to stop.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
connection.pragma('busy_timeout = ' + workerData.restartWaitMs);
const walSize = () => {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
let asked = false;
const report = (error) => parentPort.postMessage({ error: String((error && error.message) || error) });
const timer = setInterval(() => {
  if (asked) return;
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
    if (walSize() > workerData.restartBytes) {
      asked = true;
      parentPort.postMessage({ quiet: true });
    }
  } catch (error) {
    report(error);
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'quiet') {
    try {
      connection.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      report(error);
    }
    asked = false;
    parentPort.postMessage({ restarted: true });
    return;
  }
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
`;

export interface BackgroundCheckpoints {
  /** Stop the worker and close its connection; the main connection may close after this. */
  stop(): Promise<void>;
}

/**
 * Move the checkpoints of `connection` (a file database in WAL mode) to a worker thread. A failing
 * worker is reported through `onError` and the backstop checkpoint takes over.
 */
export function startBackgroundCheckpoints(connection: SQLite.Database, file: string, gate: ConnectionGate, onError: (message: string) => void): BackgroundCheckpoints {
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS, restartBytes: WAL_RESTART_BYTES, restartWaitMs: RESTART_WAIT_MS } });
  // Never what keeps the process alive: serving does, and closing stops the worker.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let quiet: NodeJS.Timeout | null = null;
  const release = () => {
    if (quiet === null) return;
    clearTimeout(quiet);
    quiet = null;
    gate.open();
  };
  // The first moment no writer holds the connection: close the gate behind it and let the worker go.
  const giveQuiet = () => {
    if (!gate.free || connection.inTransaction) return void setTimeout(giveQuiet, 1);
    gate.close();
    quiet = setTimeout(release, QUIET_LIMIT_MS);
    worker.postMessage('quiet');
  };
  worker.on('message', (message: { error?: string; quiet?: true; restarted?: true }) => {
    if (message.error !== undefined) onError(message.error);
    if (message.quiet) giveQuiet();
    if (message.restarted) release();
  });
  worker.on('error', (error) => onError(error.message));
  worker.once('exit', release);
  return {
    async stop() {
      // Referenced again while it winds down: otherwise a process with nothing else to do would exit
      // before the worker closed its connection, and the awaiting caller would never resume.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
