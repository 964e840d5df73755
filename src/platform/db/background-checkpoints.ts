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
// Durability is unchanged: commits are as durable as before (in the WAL, kill -9 safe), checkpoints
// still sync before and after copying (power-loss consistency), only on another thread.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

/** The main connection's own checkpoint, as a backstop: 16,384 pages (64 MiB of WAL at 4 KiB pages). */
export const BACKSTOP_CHECKPOINT_PAGES = 16_384;
/** How often the worker copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;

// The worker's whole program, evaluated as CommonJS (no file to locate, built or not). It opens
// the same database file with the same driver and checkpoints on a timer until told to stop.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
const timer = setInterval(() => {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
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
export function startBackgroundCheckpoints(connection: SQLite.Database, file: string, onError: (message: string) => void): BackgroundCheckpoints {
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  // Never what keeps the process alive: serving does, and closing stops the worker.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { error: string }) => onError(message.error));
  worker.on('error', (error) => onError(error.message));
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
