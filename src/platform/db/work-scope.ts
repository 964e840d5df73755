// Group-commit works hold the database until they return; this makes using it any other way from
// inside one an immediate error instead of a deadlock.
//
// A work (group-commit.ts) runs its statements through its `tx`. A statement through `deps.db` (or
// deps.reads, or another group-commit call) from inside it would, on SQLite, wait for the batch
// the work belongs to, which waits for the work: forever. On PostgreSQL it would run on another
// pooled connection, outside the work's transaction, silently. So each work runs marked (an
// AsyncLocalStorage store that follows it across its awaits), and the query builder's driver and the
// group commit refuse to start anything while the mark is theirs.
//
// The mark costs nothing outside works: the storage is disabled whenever no work is running (on
// Node 20 an enabled AsyncLocalStorage puts a hook on every promise of the process).
import { AsyncLocalStorage } from 'node:async_hooks';

const marks = new AsyncLocalStorage<WorkScope>();
/** Works running now, across every database of the process (the storage is shared). */
let running = 0;

function finished(): void {
  running -= 1;
  if (running === 0) marks.disable();
}

/** What went wrong and what to do, for the one mistake this exists to catch. */
export class InsideWorkError extends Error {
  constructor(what: string) {
    super(
      `${what} inside a group-commit work: the work holds the database until it returns, so this would wait forever on SQLite ` +
        "and run outside the work's transaction on PostgreSQL. Run the work's statements through its `tx`, and read what it needs " +
        'before it starts (src/platform/db/README.md).',
    );
    this.name = 'InsideWorkError';
  }
}

/** One per database: its works, and the check its driver and group commit make. */
export class WorkScope {
  /** Run `work` marked as one of this database's works. */
  run<T>(work: () => Promise<T>): Promise<T> {
    running += 1;
    let result: Promise<T>;
    try {
      result = marks.run(this, work);
    } catch (error) {
      result = Promise.reject(error);
    }
    return result.finally(finished);
  }

  /** Throws when called from inside one of this database's works. */
  refuse(what: string): void {
    if (marks.getStore() === this) throw new InsideWorkError(what);
  }
}
