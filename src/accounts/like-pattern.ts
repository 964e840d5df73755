// Searches match user text literally: `%`, `_` and the escape character itself are escaped, and
// every LIKE that takes such a pattern says `escape '\'` explicitly (SQLite has no default escape
// character; PostgreSQL's default is the backslash, but only with standard_conforming_strings).

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A LIKE pattern for values containing `value` literally. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}
