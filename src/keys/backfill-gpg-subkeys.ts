// GPG keys added before Kiln recorded subkeys (commit signatures find a key by its subkey's id): read
// again at start-up and their subkeys recorded. A key that has no subkeys is read again at each start
// (one gpg run; few keys have none, and starts are rare).
import type { Deps } from '../platform/deps.js';
import { readGpgPublicKey } from './gpg-public-key.js';

export async function backfillGpgSubkeys(deps: Deps): Promise<void> {
  const rows = await deps.db
    .selectFrom('gpg_keys')
    .select(['id', 'key'])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('gpg_key_subkeys').select('gpg_key_subkeys.id').whereRef('gpg_key_subkeys.gpg_key_id', '=', 'gpg_keys.id'))))
    .orderBy('id')
    .limit(1000)
    .execute();
  for (const row of rows) {
    const subkeys = (await readGpgPublicKey(row.key))?.subkeys ?? [];
    if (subkeys.length) await deps.db.insertInto('gpg_key_subkeys').values(subkeys.map((subkey) => ({ gpg_key_id: row.id, ...subkey }))).execute();
  }
}
