// The statements an app runs while `during` awaits, as texts: on SQLite every run of a prepared
// statement (all/get/run/iterate), on PostgreSQL every Client.query, i.e. every round trip (the same
// counts as bench/query-counter.ts). Import this module before any database opens: the read cache
// on PostgreSQL wraps each pooled client's query when the client connects.
import { createRequire } from 'node:module';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const require = createRequire(import.meta.url);
let recording: string[] | null = null;

const probe = new SQLite(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
probe.close();
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = statementPrototype[method];
  statementPrototype[method] = function (this: { source: string }, ...args: unknown[]) {
    recording?.push(this.source);
    return original.apply(this, args);
  };
}

// The pg the application loads (the same module instance as this file's, checked below).
const clientPrototype = (require('pg') as typeof pg).Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
if (clientPrototype !== (pg.Client.prototype as unknown)) throw new Error('two copies of pg are loaded');
const originalQuery = clientPrototype.query;
clientPrototype.query = function (this: unknown, ...args: unknown[]) {
  const config = args[0] as string | { text?: string };
  recording?.push(typeof config === 'string' ? config : (config?.text ?? ''));
  return originalQuery.apply(this, args);
};

/** The statement texts run (SQLite) or sent (PostgreSQL) while `work` ran, in order. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  recording = texts;
  try {
    await work();
  } finally {
    recording = null;
  }
  return texts;
}
