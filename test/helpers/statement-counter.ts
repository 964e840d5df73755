// Counts the statements the database drivers run (as bench/query-counter.ts does), for tests that
// hold a read to a fixed number of statements: install before the app starts, read `count`, reset it,
// and restore the drivers after. SQLite's cache checks (data_version, schema_version) are left out.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestKiln } from './kiln.js';

export interface StatementCounter {
  count: number;
  /** When set, the text of each counted statement is pushed here (to show what a read runs). */
  log?: string[];
  restore(): void;
}

export function countStatements(): StatementCounter {
  const undo: Array<() => void> = [];
  const counter: StatementCounter = { count: 0, restore: () => undo.forEach((step) => step()) };
  const wrap = (prototype: Record<string, unknown>, method: string) => {
    const original = prototype[method] as (...args: unknown[]) => unknown;
    prototype[method] = function (this: unknown, ...args: unknown[]) {
      const text = String((this as { source?: string }).source ?? (typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text ?? ''));
      if (!/data_version|schema_version/.test(text)) {
        counter.count += 1;
        counter.log?.push(text);
      }
      return original.apply(this, args);
    };
    undo.push(() => {
      prototype[method] = original;
    });
  };
  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate']) wrap(statementPrototype, method);
  wrap(pg.Client.prototype as unknown as Record<string, unknown>, 'query');
  return counter;
}

/**
 * A write to the user's and the project's rows, which the token and project look-ups read: the next
 * request finds nothing in the row cache and reads them all again.
 */
export async function invalidateLookups(kiln: TestKiln, userId: number, projectId: number): Promise<void> {
  await kiln.deps.db.updateTable('users').set({ updated_at: kiln.clock.now() }).where('id', '=', userId).execute();
  await kiln.deps.db.updateTable('projects').set({ updated_at: kiln.clock.now() }).where('id', '=', projectId).execute();
}
