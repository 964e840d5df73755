// Keeps the stored project entities (project_entities and namespace_entities, whose triggers are in
// project-entity-queries.ts) installed for this code and this base URL. Runs
// at every start: when the digest of the trigger SQL matches what the database records, nothing is
// done; otherwise the triggers are replaced and every row rebuilt, in one transaction, so no reader
// sees entities of two definitions. Processes starting together take a lock before they read the
// digest (an advisory lock on PostgreSQL; on SQLite the write lock every transaction begins with):
// one installs while the others wait, then find the digest current.
import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { sha256Hex } from '../platform/crypto.js';
import { entityUrls } from './entities.js';
import { lockDerivedDefinitions, projectEntityTriggers } from './project-entity-queries.js';

const NAME = 'project_entities';

async function installedDigest(executor: Executor): Promise<string | undefined> {
  return (await executor.selectFrom('derived_definitions').select('digest').where('name', '=', NAME).executeTakeFirst())?.digest;
}

export async function ensureStoredProjectEntities(deps: Deps): Promise<void> {
  const triggers = projectEntityTriggers(deps.dialect, entityUrls(deps.config));
  const statements = [...triggers.drop, ...triggers.create, ...triggers.rebuild];
  const digest = sha256Hex(statements.map((statement) => statement.compile(deps.db).sql).join(';\n'));
  if ((await installedDigest(deps.db)) === digest) return;
  await inTransaction(deps.db, async (trx) => {
    if (deps.dialect === 'postgres') await lockDerivedDefinitions().execute(trx);
    if ((await installedDigest(trx)) === digest) return;
    for (const statement of statements) await statement.execute(trx);
    await trx.insertInto('derived_definitions').values({ name: NAME, digest }).onConflict((c) => c.column('name').doUpdateSet({ digest })).execute();
  });
}
