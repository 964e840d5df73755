// PostgreSQL plans a statement sent unnamed anew on every run. Kiln's hot statements are few texts run
// thousands of times (the token with its project and the namespace chain, an issue's links), and on the
// realistic mix planning them cost as much of the server's CPU as running them (EXPLAIN ANALYZE: the
// token-with-project statement ~0.6 ms to plan, ~0.5 ms to run; docs/performance.md). A named
// statement is parsed and planned once per connection; after five runs PostgreSQL keeps a generic plan
// when it is no worse than the custom ones (plan_cache_mode), so the later runs skip planning.
//
// Each connection keeps the statements it prepared (server memory per statement), so only texts run
// again are named, and at most NAMED_TEXTS_MAX of them per process: a text that varies with its input
// (an `in ($1, …, $n)` of each length) takes a name only while names are left; the rest run unnamed.
import pg from 'pg';

/** How many statement texts a process names; beyond them statements run unnamed, as before. */
export const NAMED_TEXTS_MAX = 300;

/** Texts run once that are remembered, waiting for a second run. */
const SEEN_ONCE_MAX = 10_000;

/**
 * A text without values that may still be named: one query (a text with `;` may hold several, as
 * migrations' do, which only the simple protocol runs). Constant look-ups such as the system hooks'
 * or the application settings' are planned on every run when unnamed (~40–130 µs against ~5–15 µs to
 * run them, docs/performance.md).
 */
const SINGLE_QUERY = /^\s*(?:select|with|insert|update|delete)\b[^;]*$/i;

/** Texts that are not planned (transaction control) or may change what a named statement means (DDL). */
const NOT_NAMED = /^\s*(?:begin|commit|rollback|savepoint|release|set|create|alter|drop|truncate|listen|notify|prepare|deallocate)\b/i;

/** Names for statement texts: a text gets one the second time it runs. */
export class StatementNames {
  readonly #names = new Map<string, string>();
  readonly #seenOnce = new Set<string>();
  readonly #max: number;
  /** Names given so far, renamed texts included: every name is new. */
  #given = 0;

  constructor(max = NAMED_TEXTS_MAX) {
    this.#max = max;
  }

  /** The name of `text`, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= this.#max) return name;
    if (!this.#seenOnce.has(text)) {
      // Bounded like the names: texts run once are forgotten in bulk, and no longer kept once every name is given.
      if (this.#seenOnce.size >= SEEN_ONCE_MAX) this.#seenOnce.clear();
      if (!NOT_NAMED.test(text)) this.#seenOnce.add(text);
      return undefined;
    }
    this.#seenOnce.delete(text);
    const named = this.renamed(text);
    if (this.#names.size >= this.#max) this.#seenOnce.clear();
    return named;
  }

  /** A new name for `text`, which no connection has prepared yet. */
  renamed(text: string): string {
    this.#given += 1;
    const named = `kiln_${this.#given}`;
    this.#names.set(text, named);
    return named;
  }
}

/**
 * A node-postgres client that sends the statements of `names` as named (prepared) statements. Only the
 * `query(text, values)` form is named, which is how Kysely runs every statement; with no values, only a
 * single query (SINGLE_QUERY): other texts go by the simple protocol, which allows several statements
 * in one text (migrations).
 */
export function preparingClient(names: StatementNames, connectTimeoutMs: number): typeof pg.Client {
  return class PreparingClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }

    // One signature for node-postgres's overloads: only the (text, values) form is changed.
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && Array.isArray(values) && (values.length > 0 || SINGLE_QUERY.test(config)) && callback === undefined) {
        const name = names.nameOf(config);
        if (name !== undefined) return this.#named(name, config, values);
      }
      return super.query(config, values, callback);
    }

    async #named(name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
      try {
        return await super.query({ name, text, values });
      } catch (error) {
        // A table changed under a prepared `select *` (another node migrated during a rolling upgrade):
        // PostgreSQL refuses the statement until it is prepared again, which an unnamed one never needs.
        if (!String((error as Error).message).includes('cached plan must not change result type')) throw error;
        // The text takes a new name, prepared afresh on each connection at its next run (the old
        // statement stays unused until its connection ends). Inside a transaction the retry fails too
        // (the transaction is aborted): the statement then fails once there, as an unnamed one would not.
        return super.query({ name: names.renamed(text), text, values });
      }
    }
  };
}
