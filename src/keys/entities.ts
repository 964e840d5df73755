// Wire shapes of SSH keys and deploy keys (GitLab's Entities::SSHKey, SSHKeyWithUser, DeployKey,
// DeployKeysProject), fields listed explicitly.
import type { Selectable } from 'kysely';
import { isoTime } from '../platform/clock.js';
import type { DeployKeysProjectsTable, DeployTokensTable, GpgKeysTable, KeysTable } from '../platform/db/tables/keys.js';

export type KeyRow = Selectable<KeysTable>;
export type DeployKeysProjectRow = Selectable<DeployKeysProjectsTable>;

/**
 * Key#publishable_key: the comment is replaced by `<user's name> (<host>)`, so an e-mail address in
 * it never leaves the server.
 */
export function publishableKey(row: Pick<KeyRow, 'key'>, userName: string, host: string): string {
  return `${row.key} ${userName} (${host})`;
}

/** GitLab's SSHKey: `{id, title, created_at, expires_at, key, usage_type}` and when it was last used. */
export function sshKeyEntity(row: KeyRow, userName: string, host: string) {
  return {
    id: Number(row.id),
    title: row.title,
    created_at: isoTime(row.created_at),
    expires_at: isoTime(row.expires_at),
    last_used_at: isoTime(row.last_used_at),
    key: publishableKey(row, userName, host),
    usage_type: row.usage_type,
  };
}

/** The key as it was given, comment included (deploy keys are shown so). */
function fullKey(row: KeyRow): string {
  return row.comment ? `${row.key} ${row.comment}` : row.key;
}

/** GitLab's DeployKey entity. */
export function deployKeyEntity(row: KeyRow) {
  return {
    id: Number(row.id),
    title: row.title,
    created_at: isoTime(row.created_at),
    expires_at: isoTime(row.expires_at),
    key: fullKey(row),
    fingerprint: row.fingerprint_md5,
    fingerprint_sha256: `SHA256:${row.fingerprint_sha256}`,
    usage_type: row.usage_type,
  };
}

/** GitLab's DeployKeysProject: the deploy key merged with this project's `can_push`. */
export function deployKeysProjectEntity(row: KeyRow, link: Pick<DeployKeysProjectRow, 'can_push'>) {
  return { ...deployKeyEntity(row), can_push: Number(link.can_push) === 1 };
}

/**
 * A deploy key's link to a project as GitLab's fingerprint look-up shows it (DeployKeyWithUser exposes
 * the `deploy_keys_projects` records whole: every column).
 */
export function deployKeysProjectRecord(link: DeployKeysProjectRow) {
  return {
    id: Number(link.id),
    deploy_key_id: Number(link.deploy_key_id),
    project_id: Number(link.project_id),
    created_at: isoTime(link.created_at),
    updated_at: isoTime(link.updated_at),
    can_push: Number(link.can_push) === 1,
  };
}

export type DeployTokenRow = Selectable<DeployTokensTable>;

/** GitLab's DeployToken entity; `expired` as of `now`. */
export function deployTokenEntity(row: DeployTokenRow, now: number) {
  return {
    id: Number(row.id),
    name: row.name,
    username: row.username,
    expires_at: isoTime(row.expires_at),
    scopes: row.scopes.split(' '),
    revoked: row.revoked === 1,
    expired: row.expires_at !== null && Number(row.expires_at) <= now,
  };
}

export type GpgKeyRow = Selectable<GpgKeysTable>;

/** GitLab's GpgKey entity. */
export function gpgKeyEntity(row: GpgKeyRow) {
  return { id: Number(row.id), key: row.key, created_at: isoTime(row.created_at) };
}
