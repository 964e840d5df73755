// The deploy token of a git HTTP request (GitLab's Gitlab::Auth deploy_token_check): the password is
// the token and the user name must be the token's. A revoked or expired token is refused; a group's
// token carries the group's path, under which it reaches every project.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';

export type DeployTokenCredential =
  | { status: 'ok'; tokenId: number; projectId: number | null; groupPath: string | null; scopes: string[]; username: string }
  | { status: 'denied' };

export async function resolveDeployToken(deps: Deps, username: string, password: string): Promise<DeployTokenCredential | null> {
  const row = await deps.db
    .selectFrom('deploy_tokens as t')
    .leftJoin('namespaces as g', 'g.id', 't.group_id')
    .select(['t.id', 't.username', 't.scopes', 't.project_id', 't.revoked', 't.expires_at', 'g.full_path as group_path'])
    .where('t.token_digest', '=', sha256Hex(password))
    .executeTakeFirst();
  if (!row || row.username !== username) return null;
  if (row.revoked === 1 || (row.expires_at !== null && Number(row.expires_at) <= deps.clock.now())) return { status: 'denied' };
  return {
    status: 'ok',
    tokenId: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    groupPath: row.group_path ?? null,
    scopes: row.scopes.split(' '),
    username: row.username,
  };
}
