// Which tables a statement reads, and which tables a write may change, for the read caches
// (read-cache.ts, postgres-read-cache.ts) and SQLite's table versions (table-versions.ts), so that a
// commit drops only the cached answers that read what it changed.
//
// Reads: every table whose name appears in the statement's text (quoted or bare), outside string
// literals and comments and not as the alias after `as` (an alias names an output, it reads nothing):
// the project page writes its `_links` as JSON in SQL ('issues' on SQLite, `… as issues` on
// PostgreSQL), and counting those words made every issue creation drop it (issue 20). A word
// that is both a table and, say, a column name only adds a dependency: an answer can be dropped
// more often than needed, never kept too long. Writes (SQLite): the statement's target table (insert
// into, update, delete from), widened for deletes, upserts and `replace` to the tables its foreign
// keys cascade into (ON DELETE/UPDATE CASCADE, SET NULL, SET DEFAULT), transitively, and for updates
// to those that cascade on update only (none in Kiln's schema), and to the tables the triggers on
// the target write (project_entities and namespace_entities, kept by triggers on projects and
// namespaces). A write whose target cannot be
// named (DDL, a pragma, a `with … insert`) is `null`: the caller drops everything, and after DDL
// forgets the schema it learnt.
import type SQLite from 'better-sqlite3';

// Scanned left to right, so a quote or `--` inside one token does not start another. String literals
// (PostgreSQL's E'…' with its backslash escapes too), comments and `as <alias>` capture nothing and are
// skipped; an unterminated quote matches no alternative and the scan goes on after it, reading what
// follows.
const IDENTIFIER = /[Ee]'(?:[^'\\]|\\[\s\S]|'')*'|'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\/|[Aa][Ss]\s+(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)|"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_$]*)/g;
const NAME = String.raw`("(?:[^"]|"")+"|\x60[^\x60]+\x60|[A-Za-z_][A-Za-z0-9_$]*)`;
const TARGET = new RegExp(String.raw`^\s*(?:(?:insert|replace)\s+(?:or\s+\w+\s+)?into|update(?:\s+or\s+\w+)?|delete\s+from)\s+(?:main\.)?${NAME}`, 'i');
const INSERT_ONLY = /^\s*insert\s+into\b/i;
const UPDATE = /^\s*update\b/i;
const UPSERT = /\bon\s+conflict\b[\s\S]*\bdo\s+update\b/i;
const DDL = /^\s*(?:create|drop|alter|pragma|vacuum|reindex|analyze|attach|detach)\b/i;
const CASCADING = new Set(['CASCADE', 'SET NULL', 'SET DEFAULT']);
// The tables a trigger's body writes (its text after `begin`); `do update set` names no table.
const TRIGGER_WRITE = /\b(?:(?:insert|replace)\s+(?:or\s+\w+\s+)?into|delete\s+from)\s+(?:main\.)?("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)|\bupdate\s+(?:or\s+\w+\s+)?(?:main\.)?("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)\s+set\b/gi;
const TEXT_CACHE_LIMIT = 5_000;

function unquote(name: string): string {
  if (name.startsWith('"')) return name.slice(1, -1).replace(/""/g, '"');
  if (name.startsWith('`')) return name.slice(1, -1);
  return name.toLowerCase();
}

/**
 * Tables no read cache keeps reads of, so that their writes need no version bump on SQLite
 * (table-versions.ts): `alert_management_event_counts` takes a write on nearly every alert a
 * monitoring tool posts, and its bump was ~2 µs of each (the UPDATE per batch and the page it dirties
 * at commit). A cached read or remembered answer that reads one is not kept (read-cache.ts); on
 * PostgreSQL the triggers bump every table all the same.
 */
export const NEVER_CACHED: ReadonlySet<string> = new Set(['alert_management_event_counts']);

export class TableDependencies {
  private tables: Set<string> | null = null;
  /** A table → every table a write to it may change (itself and its cascades). */
  private affected = new Map<string, readonly string[]>();
  /** A table → every table an update of it may change (itself and what cascades on update). */
  private updateAffected = new Map<string, readonly string[]>();
  /** A table → every table an insert into it may change (itself and what its triggers write). */
  private insertAffected = new Map<string, readonly string[]>();
  private readsByText = new Map<string, readonly string[]>();
  private writesByText = new Map<string, readonly string[] | null>();

  constructor(private readonly connection: SQLite.Database) {}

  /** Forget the schema (after DDL here or a commit elsewhere, which may have been a migration). */
  reset(): void {
    this.tables = null;
    this.affected = new Map();
    this.updateAffected = new Map();
    this.insertAffected = new Map();
    this.readsByText = new Map();
    this.writesByText = new Map();
  }

  /** The tables a read statement depends on. */
  read(text: string): readonly string[] {
    let tables = this.readsByText.get(text);
    if (tables === undefined) {
      if (this.readsByText.size >= TEXT_CACHE_LIMIT) this.readsByText = new Map();
      this.readsByText.set(text, (tables = this.mentioned(text)));
    }
    return tables;
  }

  /** The tables a write statement may change, or null when that is unknown (drop everything). */
  written(text: string): readonly string[] | null {
    let tables = this.writesByText.get(text);
    if (tables === undefined) {
      if (this.writesByText.size >= TEXT_CACHE_LIMIT) this.writesByText = new Map();
      this.writesByText.set(text, (tables = this.targets(text)));
    }
    return tables;
  }

  /** True for statements that may change the schema: the caller resets after them. */
  static changesSchema(text: string): boolean {
    return DDL.test(text);
  }

  private targets(text: string): readonly string[] | null {
    if (DDL.test(text)) return null;
    const match = TARGET.exec(text);
    const known = this.schema();
    if (!match) {
      // e.g. `with … insert`: every table it names, widened; none named means unknown.
      const named = this.mentioned(text);
      return named.length === 0 ? null : [...new Set(named.flatMap((table) => this.affectedBy(table)))];
    }
    const target = unquote(match[1]);
    if (!known.has(target)) return null;
    // A plain insert changes no other row but what the target's triggers write: its foreign keys
    // cascade nothing (an upsert may update, and `replace` deletes). An update reaches only the
    // tables whose keys cascade on update (none in Kiln's schema: every key is ON UPDATE NO ACTION)
    // and those the triggers write.
    if (INSERT_ONLY.test(text) && !UPSERT.test(text)) return this.insertAffected.get(target) ?? [target];
    return UPDATE.test(text) ? (this.updateAffected.get(target) ?? [target]) : this.affectedBy(target);
  }

  private mentioned(text: string): readonly string[] {
    return mentionedTables(text, this.schema());
  }

  private affectedBy(table: string): readonly string[] {
    this.schema();
    return this.affected.get(table) ?? [table];
  }

  private schema(): Set<string> {
    if (this.tables) return this.tables;
    const names = (this.connection.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]);
    const tables = new Set(names);
    const children = new Map<string, Set<string>>();
    const updateChildren = new Map<string, Set<string>>();
    const add = (map: Map<string, Set<string>>, parent: string, child: string) => {
      let set = map.get(parent);
      if (!set) map.set(parent, (set = new Set()));
      set.add(child);
    };
    for (const child of names) {
      const keys = this.connection.prepare('select "table", on_update, on_delete from pragma_foreign_key_list(?)').all(child) as Array<{ table: string; on_update: string; on_delete: string }>;
      for (const key of keys) {
        if (CASCADING.has(key.on_delete) || CASCADING.has(key.on_update)) add(children, key.table, child);
        if (CASCADING.has(key.on_update)) add(updateChildren, key.table, child);
      }
    }
    // A trigger's writes are reached by any write to its table (Kiln's fire on insert and update).
    const triggerChildren = new Map<string, Set<string>>();
    const triggers = this.connection.prepare("select tbl_name as \"table\", sql from sqlite_master where type = 'trigger'").all() as Array<{ table: string; sql: string }>;
    for (const trigger of triggers) {
      const body = trigger.sql.slice(trigger.sql.search(/\bbegin\b/i));
      for (const match of body.matchAll(TRIGGER_WRITE)) {
        const written = unquote(match[1] ?? match[2]);
        if (!tables.has(written)) continue;
        for (const map of [children, updateChildren, triggerChildren]) add(map, trigger.table, written);
      }
    }
    const affected = new Map<string, readonly string[]>();
    for (const table of names) {
      const reached = new Set([table]);
      const queue = [table];
      while (queue.length > 0) {
        for (const child of children.get(queue.pop()!) ?? []) {
          if (reached.has(child)) continue;
          reached.add(child);
          queue.push(child);
        }
      }
      affected.set(table, [...reached]);
    }
    // An update changes the rows of the tables whose keys cascade on update, and whatever those reach.
    const updateAffected = new Map<string, readonly string[]>();
    for (const table of names) {
      const reached = new Set([table]);
      for (const child of updateChildren.get(table) ?? []) for (const next of affected.get(child)!) reached.add(next);
      updateAffected.set(table, [...reached]);
    }
    const insertAffected = new Map<string, readonly string[]>();
    for (const [table, written] of triggerChildren) {
      const reached = new Set([table]);
      for (const child of written) for (const next of affected.get(child)!) reached.add(next);
      insertAffected.set(table, [...reached]);
    }
    this.affected = affected;
    this.updateAffected = updateAffected;
    this.insertAffected = insertAffected;
    this.tables = tables;
    return tables;
  }
}

/** The known tables a statement names (quoted or bare): what a read depends on (see the top of this file). */
export function mentionedTables(text: string, known: ReadonlySet<string> | ReadonlyMap<string, unknown>): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? match[4]?.toLowerCase();
    if (name !== undefined && known.has(name)) found.add(name);
  }
  return [...found];
}
