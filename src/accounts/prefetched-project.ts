// A project read together with the caller's token (resolve-token-with-project.ts), as findProject
// takes it: the rows rebuilt from the statement's prefixed columns, built once per cached row, and
// read again where an answer the read cache keeps depends on them (`currentPrefetched`).
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow, PrefetchedProject, ProjectRow } from '../platform/auth/subjects.js';
import type { Statement } from '../platform/db/statements.js';
import { memberLevelOf } from './access.js';
import { tokenWithProject, type TokenWithProjectRow } from './token-with-project-queries.js';
import { compileRowMapper } from '../platform/db/row-statement.js';

export type Row = TokenWithProjectRow & Record<string, any>;

/**
 * The columns the statement reads under `prefix` (token-with-project-queries.ts names them `… as
 * p_name`), without it: a mapper compiled once from the statement's own text.
 */
function unprefixing<T>(prefix: string): (row: Row) => T {
  const text = tokenWithProject('', 0, '', '').strings.join('');
  const names = [...text.matchAll(new RegExp(`\\bas ${prefix}(\\w+)`, 'g'))].map((match) => match[1]!);
  return compileRowMapper(names.map((name) => [name, prefix + name] as const)) as unknown as (row: Row) => T;
}

const projectOf = unprefixing<ProjectRow>('p_');
const namespaceOf = unprefixing<NamespaceRow>('ns_');

function build(row: Row): PrefetchedProject | null {
  if (row.p_id === null) return null;
  return { project: projectOf(row), namespace: namespaceOf(row), memberLevel: memberLevelOf(row.project_level, row.group_level) };
}

// The read cache hands the same frozen row to every request until the data changes: the rows built
// from it are built once too, and frozen like it (callers share them).
const built = new WeakMap<Row, PrefetchedProject | null>();

export function prefetchedOf(row: Row): PrefetchedProject | null {
  // A row of its own (the cache is off): nobody shares it, nothing to remember.
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
}

// The statement each prefetched project was read by, to read it again (`currentPrefetched`).
const readBy = new WeakMap<PrefetchedProject, Statement>();

/**
 * The prefetched project as it is now, for a caller that may be computing an answer the read cache
 * keeps (`cachedAnswer`, `cachedPage`): such an answer depends on the tables its reads name, and is
 * exact only if they ran after it started. Reading the same statement again through the cache is a
 * hit that records them (no statement runs unless the data changed meanwhile, which this read then
 * sees). With the read cache off (`KILN_READ_CACHE=false`, either database) nothing is kept, and the
 * token read remembers no statement (resolve-token-with-project.ts): the rows are used as read.
 * Null when the project is gone.
 */
export async function currentPrefetched(deps: Deps, prefetched: PrefetchedProject): Promise<PrefetchedProject | null> {
  const statement = readBy.get(prefetched);
  if (statement === undefined) return prefetched;
  const row = (await deps.readCache.all<Row>(statement, { cache: true }))[0];
  const current = row ? prefetchedOf(row) : null;
  if (current) readBy.set(current, statement);
  return current;
}

/** Remember which statement read `project`, for `currentPrefetched`. */
export function rememberReadBy(project: PrefetchedProject, statement: Statement): void {
  readBy.set(project, statement);
}
