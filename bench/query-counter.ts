// Loaded into the bench's `kiln serve` with `node --import` (never in production): counts the SQL
// statements the server runs and, on PostgreSQL, its round trips, plus the HTTP requests it
// answered, so the bench can report statements and round trips per request; and reports the server's
// CPU time, the time its garbage collections took and the git processes it started. bench/run.ts
// sends SIGUSR2 and reads them from BENCH_QUERY_COUNT_FILE.
//
// The counting wrappers exist only during a counting pass (SIGWINCH puts them on, the next SIGWINCH
// puts the drivers' own methods back), which bench/run.ts runs after a target's measured rounds
// (PostgreSQL's round trips excepted, see below). The
// measured rounds run the server as it runs in production: wrapped, every statement and request paid
// for the wrapper (rest arguments, `apply`), which cost the alert endpoint 5-8 % of its CPU and the
// uncached `GET /projects/:id` 3-6 % (measured on this project's machine, docs/performance.md).
//
// SQLite: every run of a prepared statement (all/get/run/iterate), including the read cache's
// `pragma data_version` checks, its read of `table_versions` after another process committed, and
// the bump of the versions in each writing transaction; a read-cache hit that runs nothing counts
// nothing. PostgreSQL: every `Client.query` is one round trip (pg sends one statement per call),
// the read cache's one read of the table versions per request included.
//
// With BENCH_QUERY_COUNT_READS=1 (scenarios with a background write stream) only GET requests count,
// and only the statements run on behalf of GET requests (AsyncLocalStorage), so that the writes' own
// statements do not inflate the reads' cost. An AsyncLocalStorage in use puts a hook on every promise
// of the process on Node 20 (it cost the reads ~9 µs of CPU each): it is disabled when the pass ends.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { AsyncLocalStorage } from 'node:async_hooks';
import { PerformanceObserver } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const file = process.env.BENCH_QUERY_COUNT_FILE;
const readsOnly = process.env.BENCH_QUERY_COUNT_READS === '1';

const counts = { statements: 0, roundTrips: 0, requests: 0, cpuMicros: 0, gcMicros: 0, gitProcesses: 0, seq: 0 };
const inRead = new AsyncLocalStorage<boolean>();
/** A counting pass is on (SIGWINCH toggles it). */
let countingPass = false;
const counting = readsOnly ? () => inRead.getStore() === true : () => true;

type Method = (this: unknown, ...args: unknown[]) => unknown;
type Patch = { owner: Record<string, Method>; name: string; counted: Method; original: Method };

/** A method of `owner` and its counting replacement, swapped in and out by the pass. */
function patch(owner: Record<string, Method>, name: string, count: (args: unknown[]) => void, around?: (self: unknown, args: unknown[], call: () => unknown) => unknown): Patch {
  const original = owner[name];
  const counted: Method = function (this: unknown, ...args: unknown[]) {
    count(args);
    return around ? around(this, args, () => original.apply(this, args)) : original.apply(this, args);
  };
  return { owner, name, counted, original };
}

if (file) {
  const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, Method>;
  probe.close();
  const patches: Patch[] = ['all', 'get', 'run', 'iterate'].map((method) =>
    patch(statementPrototype, method, () => {
      if (counting()) counts.statements += 1;
    }),
  );

  // PostgreSQL's wrapper stays on from the start: Kiln's read cache takes each pooled client's `query`
  // when the client connects (postgres-read-cache.ts), so a wrapper put on later would never run. Its
  // cost is nothing next to the round trip it counts.
  const pg = require('pg') as typeof import('pg');
  const roundTrips = patch(pg.Client.prototype as unknown as Record<string, Method>, 'query', () => {
    if (countingPass && counting()) {
      counts.statements += 1;
      counts.roundTrips += 1;
    }
  });
  roundTrips.owner.query = roundTrips.counted;

  patches.push(
    patch(
      http.Server.prototype as unknown as Record<string, Method>,
      'emit',
      (args) => {
        if (args[0] === 'request' && (!readsOnly || (args[1] as http.IncomingMessage).method === 'GET')) counts.requests += 1;
      },
      (_self, args, call) => (readsOnly && args[0] === 'request' ? inRead.run((args[1] as http.IncomingMessage).method === 'GET', call) : call()),
    ),
  );

  // Git processes started (the repository pages' bench bounds them per page). Always on, like the
  // PostgreSQL wrapper: a counter beside a fork and exec costs nothing measurable. execFile spawns
  // through the module's own spawn, not the export, so a process counts once. The ESM bindings of
  // node:child_process are synced so that Kiln's `import { spawn }` takes the counting functions.
  const childProcess = require('node:child_process') as Record<string, Method>;
  for (const name of ['spawn', 'execFile']) {
    const original = childProcess[name];
    childProcess[name] = function (this: unknown, ...args: unknown[]) {
      if (args[0] === 'git') counts.gitProcesses += 1;
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
  // Kiln's own git starts on git threads, where this wrapper does not reach: it publishes each start
  // on a diagnostics channel (src/repositories/git-threads.ts).
  subscribe('kiln:git-start', (message) => {
    if ((message as { file?: string }).file === 'git') counts.gitProcesses += 1;
  });

  // The collector's time (young and old generation alike), always on: one entry per collection costs
  // nothing next to the collection. A per-request allocation that outlives the young generation shows
  // here first (docs/performance.md, the request deadline): its share of the CPU jumps.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) counts.gcMicros += entry.duration * 1000;
  }).observe({ entryTypes: ['gc'] });

  process.on('SIGWINCH', () => {
    countingPass = !countingPass;
    for (const { owner, name, counted, original } of patches) owner[name] = countingPass ? counted : original;
    // No store may stay set after the pass: disabling the storage takes its hook off the promises.
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
