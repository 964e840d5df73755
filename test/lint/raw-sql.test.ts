// The data-access rules of `npm run lint` (eslint.config.js): Kysely's `sql` tag, CompiledQuery, the
// `q` statements and the drivers only in src/platform/db and in *-queries.ts files, and builder
// transactions opened only through inTransaction (src/platform/db/README.md).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const REPOSITORY = resolve(import.meta.dirname, '../..');
const RULE = '@typescript-eslint/no-restricted-imports';
const eslint = new ESLint({ cwd: REPOSITORY });

/** The messages of the raw-SQL rule (or `rule`) for `code` as if it were the file at `path`. */
async function refusals(path: string, code: string, rule = RULE): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(REPOSITORY, path) });
  return result.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

const Q_STATEMENT = "import { q } from '../platform/db/statements.js';\nexport const newest = q`select max(id) as id from events`;\n";
const SQL_TAG = "import { sql } from 'kysely';\nexport const never = sql<boolean>`1 = 0`;\n";
const RAW_QUERY = "import { CompiledQuery } from 'kysely';\nexport const one = CompiledQuery.raw('select 1', []);\n";
const DRIVER = "import SQLite from 'better-sqlite3';\nexport const open = (file: string) => new SQLite(file);\n";

describe('raw SQL in src/', () => {
  it('is refused in a feature file: the q tag, the sql tag, CompiledQuery and the drivers', async () => {
    expect(await refusals('src/events/finder.ts', Q_STATEMENT)).toEqual([expect.stringMatching(/'q' import .* restricted.*\*-queries\.ts/)]);
    expect(await refusals('src/accounts/finders.ts', SQL_TAG)).toEqual([expect.stringMatching(/'sql' import from 'kysely' is restricted/)]);
    expect(await refusals('src/alerts/receive-alert.ts', RAW_QUERY)).toEqual([expect.stringMatching(/'CompiledQuery' import from 'kysely' is restricted/)]);
    expect(await refusals('src/operations/backup.ts', DRIVER)).toEqual([expect.stringMatching(/'better-sqlite3' import is restricted/)]);
  });

  it('is refused in platform outside the data-access layer', async () => {
    expect(await refusals('src/platform/http/pagination.ts', SQL_TAG)).toHaveLength(1);
    expect(await refusals('src/platform/jobs/queue.ts', Q_STATEMENT.replace('../platform/db/', '../db/'))).toHaveLength(1);
  });

  it('is allowed in *-queries.ts files and in src/platform/db', async () => {
    for (const code of [Q_STATEMENT, SQL_TAG, RAW_QUERY, DRIVER]) {
      expect(await refusals('src/events/count-cache-queries.ts', code)).toEqual([]);
      expect(await refusals('src/platform/db/like.ts', code.replace('../platform/db/', './'))).toEqual([]);
    }
  });

  it('allows the builder and the types of kysely everywhere', async () => {
    const code = "import type { RawBuilder, SqlBool, CompiledQuery } from 'kysely';\nimport type { Statement } from '../platform/db/statements.js';\nexport type T = [RawBuilder<SqlBool>, CompiledQuery, Statement];\n";
    expect(await refusals('src/events/finder.ts', code)).toEqual([]);
  });

  it('opens builder transactions only through inTransaction', async () => {
    const code = "import type { Deps } from '../platform/deps.js';\nexport const f = (deps: Deps) => deps.db.transaction().execute(async () => 1);\nexport const g = (deps: Deps) => deps.groupCommit.transaction(async () => 1);\n";
    expect(await refusals('src/events/finder.ts', code, 'no-restricted-syntax')).toEqual(['Open a transaction with inTransaction (src/platform/db/README.md).']);
    expect(await refusals('src/platform/db/database.ts', code, 'no-restricted-syntax')).toEqual([]);
  });
});
