import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Signed commits (issue 37). The subkeys of users' GPG keys, so that a signature made with a signing
// subkey finds its key (GitLab's gpg_key_subkeys), and the outcome of verifying a commit's signature,
// kept per project and commit (GitLab's gpg_signatures and ssh_signatures in one table): verifying
// runs gpgv or ssh-keygen, and a commit list shows many commits. `signer` is what the signature names
// (a GPG key id, or an SSH key's SHA-256 fingerprint): adding or removing a key deletes the rows it
// may change, which are verified again when next asked.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('gpg_key_subkeys'))
    .addColumn('gpg_key_id', 'bigint', (c) => c.notNull().references('gpg_keys.id').onDelete('cascade'))
    // Upper-case hex, as gpg prints them.
    .addColumn('keyid', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gpg_key_subkeys_keyid').on('gpg_key_subkeys').column('keyid').execute();
  await db.schema.createIndex('gpg_key_subkeys_key').on('gpg_key_subkeys').column('gpg_key_id').execute();

  await withId(db, db.schema.createTable('commit_signatures'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    // PGP or SSH.
    .addColumn('signature_type', 'text', (c) => c.notNull())
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('signer', 'text', (c) => c.notNull())
    .addColumn('gpg_key_id', 'bigint', (c) => c.references('gpg_keys.id').onDelete('set null'))
    .addColumn('gpg_key_subkey_id', 'bigint', (c) => c.references('gpg_key_subkeys.id').onDelete('set null'))
    .addColumn('gpg_key_primary_keyid', 'text')
    .addColumn('gpg_key_user_name', 'text')
    .addColumn('gpg_key_user_email', 'text')
    .addColumn('key_id', 'bigint', (c) => c.references('keys.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('commit_signatures_commit').on('commit_signatures').columns(['project_id', 'commit_sha']).unique().execute();
  await db.schema.createIndex('commit_signatures_signer').on('commit_signatures').column('signer').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
