// Retention of the outbox (KILN_MAIL_RETENTION_DAYS): sent and dead messages older than that are
// deleted, with the .eml file of each one written without an SMTP server; queued ones are never
// touched. A daily job (index.ts), in small batches that yield between them, so that a synchronous
// SQLite database keeps serving requests while a large backlog goes.
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';
import { mailDirectory } from './transport.js';

export const PRUNE_OUTBOX_JOB = 'email.prune_outbox';
export const PRUNE_BATCH = 500;

const FINISHED = ['sent', 'dead'] as const;

export interface PruneOutboxResult {
  emailsPruned: number;
  filesRemoved: number;
}

/** Delete finished messages last changed before the cutoff, and their files. */
export async function pruneOutbox(deps: Deps, batchSize = PRUNE_BATCH): Promise<PruneOutboxResult> {
  const cutoff = deps.clock.now() - deps.config.mailRetentionDays * DAY_MS;
  const result: PruneOutboxResult = { emailsPruned: 0, filesRemoved: 0 };
  for (const state of FINISHED) {
    let afterId = 0;
    for (;;) {
      // The (state, id) index walks one state's messages oldest first. Ids grow with time, so the walk
      // stops at the first batch that holds a message queued after the cutoff: every later one is younger.
      const rows = await deps.db
        .selectFrom('email_outbox')
        .select(['id', 'file', 'created_at', 'updated_at'])
        .where('state', '=', state)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(batchSize)
        .execute();
      const old = rows.filter((row) => Number(row.updated_at) < cutoff);
      if (old.length > 0) {
        const deleted = await deps.db.deleteFrom('email_outbox').where('id', 'in', old.map((row) => row.id)).where('state', '=', state).executeTakeFirst();
        result.emailsPruned += Number(deleted.numDeletedRows);
        result.filesRemoved += await removeFiles(deps, old.map((row) => row.file));
      }
      if (rows.length < batchSize || rows.some((row) => Number(row.created_at) >= cutoff)) break;
      afterId = Number(rows[rows.length - 1].id);
      await yieldToEventLoop();
    }
  }
  return result;
}

/** The files are named by the transport (`<id>.eml` under <data>/mail); anything else is not ours to remove. */
async function removeFiles(deps: Deps, files: Array<string | null>): Promise<number> {
  const directory = mailDirectory(deps.config);
  let removed = 0;
  for (const file of files) {
    if (!file || basename(file) !== file || !file.endsWith('.eml')) continue;
    try {
      await rm(join(directory, file));
      removed += 1;
    } catch (error) {
      // Already gone (removed by hand, or a data directory restored without them): nothing to do.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
