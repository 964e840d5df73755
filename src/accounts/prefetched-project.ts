// A project read together with the caller's token (resolve-token-with-project.ts), as findProject
// takes it: the rows rebuilt from the statement's prefixed columns by mappers compiled once for the
// columns the statement reads (token-with-project-queries.ts).
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow, PrefetchedProject, ProjectRow } from '../platform/auth/subjects.js';
import { cacheSlot } from '../platform/instance-caches.js';
import { compileRowMapper } from '../platform/db/row-statement.js';
import { memberLevelOf } from './access.js';
import { tableColumns, tokenWithProjectStatements, type TokenWithProjectRow, type TokenWithProjectStatements } from './token-with-project-queries.js';

export type Row = TokenWithProjectRow & Record<string, any>;

export interface PrefetchedReader {
  statements: TokenWithProjectStatements;
  build(row: Row): PrefetchedProject | null;
}

function readerOf(statements: TokenWithProjectStatements): PrefetchedReader {
  const unprefixing = <T>(prefix: string, columns: readonly string[]) => compileRowMapper(columns.map((column) => [column, prefix + column] as const)) as unknown as (row: Row) => T;
  const projectOf = unprefixing<ProjectRow>('p_', statements.projectColumns);
  const namespaceOf = unprefixing<NamespaceRow>('ns_', statements.namespaceColumns);
  // The row cache hands the same frozen row to every request until the data changes: the rows built
  // from it are built once too, and frozen like it (callers share them).
  const built = new WeakMap<Row, PrefetchedProject | null>();
  const build = (row: Row): PrefetchedProject | null =>
    row.p_id === null ? null : { project: projectOf(row), namespace: namespaceOf(row), memberLevel: memberLevelOf(row.project_level, row.group_level, row.shared_level) };
  return {
    statements,
    build(row) {
      if (!Object.isFrozen(row)) return build(row);
      let prefetched = built.get(row);
      if (prefetched === undefined) {
        prefetched = build(row);
        if (prefetched) {
          Object.freeze(prefetched.project);
          Object.freeze(prefetched.namespace);
          Object.freeze(prefetched);
        }
        built.set(row, prefetched);
      }
      return prefetched;
    },
  };
}

// Per app: the columns are its database's, read once after its migrations.
const READER = cacheSlot<{ reader?: Promise<PrefetchedReader> }>('accounts.token-with-project', () => ({}));

/** The statements and row builder for this app's schema (columns read on first use). */
export function prefetchedReader(deps: Deps): Promise<PrefetchedReader> {
  const slot = deps.caches.of(READER);
  slot.reader ??= (async () => {
    const columns = async (table: 'projects' | 'namespaces') => (await deps.reads.all<{ name: string }>(tableColumns(deps.dialect, table))).map((row) => row.name);
    return readerOf(tokenWithProjectStatements(await columns('projects'), await columns('namespaces')));
  })();
  slot.reader.catch(() => (slot.reader = undefined));
  return slot.reader;
}
