// Loaded into the bench's `kiln serve` with `node --import` (never in production): counts the SQL
// statements the server runs and, on PostgreSQL, its round trips, plus the HTTP requests it
// answered, so the bench can report statements and round trips per request. bench/run.ts sends
// SIGUSR2 and reads the counts (and the server's CPU time) from BENCH_QUERY_COUNT_FILE.
//
// SQLite: every run of a prepared statement (all/get/run/iterate), including the read cache's
// `pragma data_version` checks, its read of `table_versions` after another process committed, and
// the bump of the versions in each writing transaction; a read-cache hit that runs nothing counts
// nothing. PostgreSQL: every `Client.query` is one round trip (pg sends one statement per call),
// the read cache's one read of the table versions per request included.
//
// With BENCH_QUERY_COUNT_READS=1 (scenarios with a background write stream) only GET requests count,
// and statements only while a counting pass is on (SIGWINCH toggles it): then the statements run on
// behalf of GET requests (AsyncLocalStorage) count, so that the writes' own statements do not
// inflate the reads' cost. The pass is separate from the measured rounds because an
// AsyncLocalStorage in use puts a hook on every promise of the process on Node 20: it cost the
// measured reads ~9 µs of CPU each (~20 % of their rate). Without the setting everything counts,
// with no per-request context and no hook.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { AsyncLocalStorage } from 'node:async_hooks';

const require = createRequire(import.meta.url);
const file = process.env.BENCH_QUERY_COUNT_FILE;
const readsOnly = process.env.BENCH_QUERY_COUNT_READS === '1';

const counts = { statements: 0, roundTrips: 0, requests: 0, cpuMicros: 0, seq: 0 };
const inRead = new AsyncLocalStorage<boolean>();
/** The reads-only counting pass is on (SIGWINCH toggles it). */
let countingPass = false;
const counting = readsOnly ? () => countingPass && inRead.getStore() === true : () => true;

if (file) {
  const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statementPrototype[method];
    statementPrototype[method] = function (this: unknown, ...args: unknown[]) {
      if (counting()) counts.statements += 1;
      return original.apply(this, args);
    };
  }

  const pg = require('pg') as typeof import('pg');
  const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
    if (counting()) {
      counts.statements += 1;
      counts.roundTrips += 1;
    }
    return originalQuery.apply(this, args);
  };

  const server = http.Server.prototype as unknown as { emit: (...args: unknown[]) => boolean };
  const originalEmit = server.emit;
  server.emit = function (this: unknown, ...args: unknown[]) {
    if (args[0] !== 'request') return originalEmit.apply(this, args);
    const isRead = (args[1] as http.IncomingMessage).method === 'GET';
    if (!readsOnly || isRead) counts.requests += 1;
    return readsOnly && countingPass ? inRead.run(isRead, () => originalEmit.apply(this, args)) : originalEmit.apply(this, args);
  };

  process.on('SIGWINCH', () => {
    countingPass = !countingPass;
    // Outside the pass no store may stay set: disabling the storage takes its hook off the promises.
    if (!countingPass) inRead.disable();
  });

  process.on('SIGUSR2', () => {
    counts.seq += 1;
    // The server's CPU time (all of it, background writes included): on a loaded machine a steadier
    // measure of the cost per request than the rate.
    const cpu = process.cpuUsage();
    counts.cpuMicros = cpu.user + cpu.system;
    writeFileSync(file, JSON.stringify(counts));
  });
}
