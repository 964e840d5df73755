// The secrets a node starts with must be the ones its database was initialised with. Two nodes with
// different secrets.json files serve different JWKS keys (OpenID Connect tokens then fail on every
// other request behind a load balancer) and cannot decrypt each other's stored values; a restore
// without the backup's secrets has the same effect. The first start records the file's fingerprint;
// every later start compares, and a mismatch stops the node with the file to copy.
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import { ConfigError } from '../config.js';
import { addSshHostKeys, createSecrets, generateSshHostKeys, readSecrets, secretsFingerprint, secretsPath, SecretsFileError, sshHostKeysFingerprint, type InstanceSecrets } from '../platform/secrets.js';

// The table is this module's alone, so its type lives here rather than in the shared schema.
type FingerprintTables = {
  instance_secrets_fingerprint: { id: number; fingerprint: string; recorded_at: number };
};

function table(db: Kysely<DB>): Kysely<DB & FingerprintTables> {
  return db.withTables<FingerprintTables>();
}

/** Row 1: the secrets' fingerprint; row 2: the SSH host keys', recorded once a file has them. */
const SECRETS_ROW = 1;
const HOST_KEYS_ROW = 2;

export async function recordedFingerprint(db: Kysely<DB>, id = SECRETS_ROW): Promise<string | null> {
  const row = await table(db).selectFrom('instance_secrets_fingerprint').select('fingerprint').where('id', '=', id).executeTakeFirst();
  return row?.fingerprint ?? null;
}

/** The first insert wins (nodes starting together); every node then compares with it. */
async function recordOnce(db: Kysely<DB>, id: number, fingerprint: string, now: number): Promise<string | null> {
  await table(db).insertInto('instance_secrets_fingerprint').values({ id, fingerprint, recorded_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
  return recordedFingerprint(db, id);
}

/**
 * The SSH host keys: a file without them (written before Kiln had SSH) gets new ones, unless the
 * database already knows the instance's keys, which then must be copied from a node that has them.
 */
async function withSshHostKeys(db: Kysely<DB>, dataDir: string, now: number, secrets: InstanceSecrets, given: boolean): Promise<InstanceSecrets> {
  const path = secretsPath(dataDir);
  let recorded = await recordedFingerprint(db, HOST_KEYS_ROW);
  if (!secrets.sshHostKeys) {
    if (given) return secrets;
    if (recorded) throw new ConfigError(`KILN_DATA_DIR: ${path} has no SSH host keys, and this instance has some: ${COPY} over ${path}`);
    secrets = addSshHostKeys(dataDir, secrets, await generateSshHostKeys());
  }
  const fingerprint = sshHostKeysFingerprint(secrets.sshHostKeys!);
  recorded ??= await recordOnce(db, HOST_KEYS_ROW, fingerprint, now);
  if (recorded !== fingerprint) throw new ConfigError(`KILN_DATA_DIR: the SSH host keys in ${path} differ from this instance's: ${COPY} over ${path}`);
  return secrets;
}

const COPY = 'copy secrets.json from a node that runs on this database (or from the backup it was restored from)';

/**
 * The instance secrets: the given ones (tests), or the data dir's file, created on a database that
 * has none recorded. Throws a ConfigError when they are not the database's.
 */
export async function loadInstanceSecrets(db: Kysely<DB>, dataDir: string, now: number, given?: InstanceSecrets): Promise<InstanceSecrets> {
  const path = secretsPath(dataDir);
  let recorded = await recordedFingerprint(db);
  let secrets: InstanceSecrets | null;
  try {
    secrets = given ?? readSecrets(dataDir);
  } catch (error) {
    if (error instanceof SecretsFileError) throw new ConfigError(`KILN_DATA_DIR: ${error.message}: ${COPY} to ${path}`);
    throw error;
  }
  if (!secrets) {
    if (recorded) throw new ConfigError(`KILN_DATA_DIR: ${path} is missing, and this database was initialised with a secrets file: ${COPY} to ${path} (mode 0600)`);
    secrets = createSecrets(dataDir, await generateSshHostKeys());
  }
  const fingerprint = secretsFingerprint(secrets);
  // Nodes starting together on a new database: the first insert wins, the others compare with it.
  recorded ??= await recordOnce(db, SECRETS_ROW, fingerprint, now);
  if (recorded !== fingerprint) {
    throw new ConfigError(
      `KILN_DATA_DIR: ${path} differs from the secrets this database was initialised with (file ${fingerprint.slice(0, 12)}, database ${recorded?.slice(0, 12)}): ${COPY} over ${path}`,
    );
  }
  return withSshHostKeys(db, dataDir, now, secrets, given !== undefined);
}
