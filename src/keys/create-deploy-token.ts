// POST /projects/:id/deploy_tokens and /groups/:id/deploy_tokens (GitLab's DeployTokens::CreateService):
// a token shown once and kept as its SHA-256 digest, with the given user name or
// `gitlab+deploy-token-<id>`, written in one transaction so the default name carries the row's id.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { ValidationError } from '../platform/errors.js';
import type { DeployTokenOwner } from './deploy-tokens-finder.js';
import type { DeployTokenRow } from './entities.js';

/** GitLab's deploy token scopes; Kiln's git access honours the repository ones (no registry yet). */
export const DEPLOY_TOKEN_SCOPES = ['read_repository', 'write_repository', 'read_registry', 'write_registry', 'read_package_registry', 'write_package_registry'] as const;

/** Whether every scope is one of GitLab's deploy token scopes. */
export function knownScopes(scopes: readonly string[]): boolean {
  return scopes.every((scope) => (DEPLOY_TOKEN_SCOPES as readonly string[]).includes(scope));
}

const USERNAME = /^[a-zA-Z0-9.+_-]+$/;

export interface DeployTokenInput {
  name: string;
  scopes: string[];
  username?: string;
  /** Epoch ms, or null for a token that never expires. */
  expiresAt: number | null;
}

export async function createDeployToken(deps: Deps, creatorId: number, owner: DeployTokenOwner, input: DeployTokenInput): Promise<{ row: DeployTokenRow; token: string }> {
  const errors: Record<string, string[]> = {};
  const name = input.name.trim();
  if (name === '') errors.name = ["can't be blank"];
  if (input.scopes.length === 0) errors.scopes = ["can't be blank"];
  const username = input.username?.trim();
  if (username !== undefined && username !== '') {
    if (username.length > 255) errors.username = ['is too long (maximum is 255 characters)'];
    else if (!USERNAME.test(username)) errors.username = ["can contain only letters, digits, '_', '-', '+', and '.'"];
  }
  // No check that expires_at is ahead: GitLab's DeployToken validates none, and a past date makes a
  // token that is expired from the start (refused by git and the active list).
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const token = `gldt-${randomToken(20)}`;
  const now = deps.clock.now();
  const row = await inTransaction(deps.db, async (trx) => {
    const inserted = await trx
      .insertInto('deploy_tokens')
      .values({
        name,
        username: username || '',
        token_digest: sha256Hex(token),
        scopes: input.scopes.join(' '),
        project_id: owner.kind === 'project' ? owner.id : null,
        group_id: owner.kind === 'group' ? owner.id : null,
        creator_id: creatorId,
        expires_at: input.expiresAt,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (inserted.username !== '') return inserted;
    return trx.updateTable('deploy_tokens').set({ username: `gitlab+deploy-token-${inserted.id}` }).where('id', '=', inserted.id).returningAll().executeTakeFirstOrThrow();
  });
  return { row, token };
}
