// POST /projects/:id/access_tokens and /groups/:id/access_tokens (GitLab's
// ResourceAccessTokens::CreateService): a bot user of its own (`project_<id>_bot_<hex>` or
// `group_<id>_bot_<hex>`, named as the token, no password), made a member with the token's role, and
// its personal access token — all in one transaction. Nobody may give a token a higher role than
// their own. The membership does not expire with the token (GitLab's since 17.9): it ties the token,
// expired or revoked, to the project or group until the bot is deleted (prune-token-bots.ts).
import type { Deps } from '../platform/deps.js';
import { mayGrantLevel, type PolicySubject } from '../platform/auth/policies/index.js';
import { inTransaction } from '../platform/db/database.js';
import { randomBytes } from 'node:crypto';
import { BadRequestError, ValidationError } from '../platform/errors.js';
import { createPersonalAccessToken } from './create-personal-access-token.js';
import { insertMember } from './insert-member.js';
import { validateMemberLevel, type MemberSource } from './member-source.js';
import type { ResourceTokenRow } from './resource-access-tokens-finder.js';

/** The scopes a bot's token may carry (GitLab's resource_bot_scopes that Kiln has). */
export const RESOURCE_TOKEN_SCOPES = ['api', 'read_api', 'read_repository', 'write_repository'] as const;

export interface ResourceTokenInput {
  name: string;
  scopes: string[];
  accessLevel: number;
  expiresAt: string | null;
}

export async function createResourceAccessToken(
  deps: Deps,
  creator: PolicySubject,
  source: MemberSource,
  input: ResourceTokenInput,
): Promise<{ row: ResourceTokenRow; token: string }> {
  validateMemberLevel(input.accessLevel);
  const kind = source.type === 'Project' ? 'project' : 'group';
  if (!mayGrantLevel(creator, input.accessLevel)) {
    throw new BadRequestError(`User does not have permission to create ${kind} access token with the specified access level.`);
  }
  if (!input.name?.trim()) throw new ValidationError({ name: ["can't be blank"] });
  const username = `${kind}_${source.id}_bot_${randomBytes(8).toString('hex')}`;
  const email = `${username}@noreply.${new URL(deps.config.baseUrl).hostname}`;
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const bot = await trx
      .insertInto('users')
      .values({ username, username_lower: username, name: input.name.trim(), email, email_lower: email, state: 'active', user_type: 'project_bot', password_hash: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const botId = Number(bot.id);
    await trx
      .insertInto('namespaces')
      .values({ kind: 'user', name: username, path: username, full_path: username, full_path_lower: username, parent_id: null, owner_id: botId, visibility: 'private', created_at: now, updated_at: now })
      .execute();
    const member = await insertMember(trx, deps.clock, source, { userId: botId, accessLevel: input.accessLevel, expiresAt: null }, null);
    const { row, token } = await createPersonalAccessToken(deps, { userId: botId, name: input.name, scopes: input.scopes, expiresAt: input.expiresAt, availableScopes: RESOURCE_TOKEN_SCOPES }, undefined, trx);
    return { row: { ...row, access_level: Number(member.access_level) }, token };
  });
}
