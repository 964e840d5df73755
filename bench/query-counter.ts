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
// With BENCH_QUERY_COUNT_READS=1 (scenarios with a background write stream) only GET requests and
// the statements run on their behalf (AsyncLocalStorage) are counted, so that the writes' own
// statements do not inflate the reads' cost; without it everything counts (no per-request context).
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { AsyncLocalStorage } from 'node:async_hooks';

const require = createRequire(import.meta.url);
const file = process.env.BENCH_QUERY_COUNT_FILE;
const readsOnly = process.env.BENCH_QUERY_COUNT_READS === '1';

const counts = { statements: 0, roundTrips: 0, requests: 0, cpuMicros: 0, seq: 0 };
const inRead = new AsyncLocalStorage<boolean>();
const counting = readsOnly ? () => inRead.getStore() === true : () => true;

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
    return readsOnly ? inRead.run(isRead, () => originalEmit.apply(this, args)) : originalEmit.apply(this, args);
  };

  process.on('SIGUSR2', () => {
    counts.seq += 1;
    // The server's CPU time (all of it, background writes included): on a loaded machine a steadier
    // measure of the cost per request than the rate.
    const cpu = process.cpuUsage();
    counts.cpuMicros = cpu.user + cpu.system;
    writeFileSync(file, JSON.stringify(counts));
  });
}
