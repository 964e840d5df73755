// Raw statements outside the query builder, and the one transaction interface shared helpers take.
//
// Statements are written with the `q` tag; its placeholders come from the template's positions, so
// the text is never rewritten by hand and the values are always bound. The tag may be used only in
// src/platform/db and in `*-queries.ts` files (eslint.config.js); everything else uses the builder
// or calls a function of such a file (README.md in this folder).
import { sql, type Transaction } from 'kysely';
import type { DB } from './schema.js';

export interface Statement {
  strings: TemplateStringsArray;
  values: unknown[];
}

/**
 * `parts` as the template object `q` receives, for a statement whose text is put together from pieces
 * (its placeholders fall between the parts). Make it once, at load or memoised: statements are
 * cached by their template object.
 */
export function templateOf(parts: readonly string[]): TemplateStringsArray {
  const strings = [...parts];
  return Object.freeze(Object.assign(strings, { raw: Object.freeze([...parts]) })) as unknown as TemplateStringsArray;
}

/** `q\`select … where id = ${id}\``: a statement with bound values. */
export function q(strings: TemplateStringsArray, ...values: unknown[]): Statement {
  return { strings, values };
}

/**
 * The caller's transaction, for raw statements: the `trx` of `inTransaction` (a builder transaction)
 * or the `tx` of a group-commit work. A helper that may run in either takes this one type.
 * Rows may be shared between callers: never mutate them.
 */
export interface Tx {
  all<T>(statement: Statement): Promise<readonly T[]>;
}

/** A builder transaction that also runs raw statements: what `inTransaction` hands its work. */
export type DbTransaction = Transaction<DB> & Tx;

/**
 * The builder transaction as a `Tx` as well. Kysely makes the transaction object and offers no way
 * to extend it, so the method is added to that object, once.
 */
export function builderTx(trx: Transaction<DB>): DbTransaction {
  const target = trx as DbTransaction;
  if (!Object.hasOwn(target, 'all')) {
    target.all = async <T>(statement: Statement): Promise<readonly T[]> => (await sql<T>(statement.strings, ...statement.values).execute(trx)).rows;
  }
  return target;
}

/** What a write did: its RETURNING rows (none without RETURNING) and how many rows it changed. */
export interface Written<T> {
  rows: readonly T[];
  changes: number;
}

/** Statement texts by template, per placeholder style (the template object is unique per call site). */
function textCache(placeholder: (index: number) => string) {
  // Keyed by the template object: the text depends on nothing else, so it is shared by every
  // database of the process.
  const texts = new WeakMap<TemplateStringsArray, string>();
  return (strings: TemplateStringsArray): string => {
    let text = texts.get(strings);
    if (text === undefined) {
      text = strings.reduce((joined, part, index) => `${joined}${placeholder(index)}${part}`);
      texts.set(strings, text);
    }
    return text;
  };
}

export const postgresText = textCache((index) => `$${index}`);
export const sqliteText = textCache(() => '?');
