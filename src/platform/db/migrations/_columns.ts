// Column helpers shared by migrations (not a migration itself: the name does not start with a date).
// Kept here, not in application code, because migrations are frozen and must not import the app.
import type { CreateTableBuilder, Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Auto-increment primary key: INTEGER on SQLite (rowid alias), BIGSERIAL on PostgreSQL. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Timestamps are epoch milliseconds in a BIGINT on both dialects, converted to ISO 8601 at the wire. */
export const TIME = 'bigint' as const;
