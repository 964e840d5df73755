// Case-insensitive search by LIKE, the form every listing's `search` uses, on both dialects.
import { sql, type RawBuilder } from 'kysely';

/**
 * `lower(column) like pattern escape '\'`: `pattern` is lower-case already, with `\`, `%` and `_` of
 * the searched text escaped by a backslash.
 */
export function lowerLike(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** The lower-case pattern for values containing `text` literally (for lowerLike). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
