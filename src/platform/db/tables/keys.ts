// Tables of the keys feature: SSH keys of users and deploy keys (GitLab's `keys` with its `type`),
// the projects a deploy key is enabled on, and deploy tokens.
import type { Generated } from 'kysely';

export type KeyUsageType = 'auth' | 'signing' | 'auth_and_signing';

export interface KeysTable {
  id: Generated<number>;
  type: 'Key' | 'DeployKey';
  user_id: number | null;
  title: string;
  key: string;
  comment: Generated<string>;
  algorithm: string;
  bits: number;
  fingerprint_md5: string;
  fingerprint_sha256: string;
  usage_type: Generated<KeyUsageType>;
  public: Generated<number>;
  expires_at: number | null;
  last_used_at: number | null;
  before_expiry_notified_at: number | null;
  expiry_notified_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeployKeysProjectsTable {
  id: Generated<number>;
  deploy_key_id: number;
  project_id: number;
  can_push: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** A deploy token of a project or of a group (exactly one of the two set). */
export interface DeployTokensTable {
  id: Generated<number>;
  name: string;
  username: string;
  token_digest: string;
  scopes: string;
  project_id: number | null;
  group_id: number | null;
  creator_id: number | null;
  expires_at: number | null;
  revoked: Generated<number>;
  created_at: number;
}

/** A user's GPG public key with what was read from it. */
export interface GpgKeysTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  primary_keyid: string;
  fingerprint: string;
  emails: string;
  created_at: number;
}

/** A subkey of a GPG key (a signing subkey is what most signatures name). */
export interface GpgKeySubkeysTable {
  id: Generated<number>;
  gpg_key_id: number;
  keyid: string;
  fingerprint: string;
}

/** The outcome of verifying a commit's signature, kept until a key it depends on changes. */
export interface CommitSignaturesTable {
  id: Generated<number>;
  project_id: number;
  commit_sha: string;
  signature_type: 'PGP' | 'SSH';
  verification_status: string;
  /** The GPG key id or SSH key fingerprint (SHA-256, base64) the signature names. */
  signer: string;
  gpg_key_id: number | null;
  gpg_key_subkey_id: number | null;
  gpg_key_primary_keyid: string | null;
  gpg_key_user_name: string | null;
  gpg_key_user_email: string | null;
  key_id: number | null;
  created_at: number;
}

export interface KeysTables {
  gpg_keys: GpgKeysTable;
  gpg_key_subkeys: GpgKeySubkeysTable;
  commit_signatures: CommitSignaturesTable;
  keys: KeysTable;
  deploy_keys_projects: DeployKeysProjectsTable;
  deploy_tokens: DeployTokensTable;
}
