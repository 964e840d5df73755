// Create a personal access token: shown once, stored as its SHA-256 digest (docs/architecture.md, Data).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { ValidationError } from '../platform/errors.js';
import { today } from './access.js';

export const PAT_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo', 'admin_mode'] as const;

/** The scopes only an administrator's own tokens may carry (GitLab's available scopes for a non-admin exclude them). */
export const ADMIN_ONLY_SCOPES: readonly string[] = ['sudo', 'admin_mode'];

/** The scopes a user may give their own token: all of them for an administrator, the rest for everyone else. */
export function scopesAvailableTo(administrator: boolean): readonly string[] {
  return administrator ? PAT_SCOPES : PAT_SCOPES.filter((scope) => !ADMIN_ONLY_SCOPES.includes(scope));
}

/** GitLab's token prefix, so secret scanners recognise leaked Kiln tokens too. */
const PREFIX = 'glpat-';

export interface CreateTokenInput {
  userId: number;
  name: string;
  scopes: string[];
  expiresAt?: string | null;
  /**
   * The scopes this creation may grant; absent means every scope (an administrator creating a token
   * through the API). A user creating their own token passes scopesAvailableTo(their admin flag).
   */
  availableScopes?: readonly string[];
  /** An impersonation token (made by an administrator for the user, GitLab's impersonation tokens). */
  impersonation?: boolean;
}

/** `db`: the caller's transaction when the token is made with its user (a bot of an access token). */
export async function createPersonalAccessToken(deps: Deps, input: CreateTokenInput, plaintext?: string, db: Executor = deps.db) {
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["can't be blank"];
  if (input.scopes.length === 0) errors.scopes = ["can't be blank"];
  const unknown = input.scopes.filter((scope) => !(PAT_SCOPES as readonly string[]).includes(scope));
  if (unknown.length) errors.scopes = [...(errors.scopes ?? []), `${unknown.join(', ')} is not a valid scope`];
  const withheld = input.availableScopes ? input.scopes.filter((scope) => !unknown.includes(scope) && !input.availableScopes!.includes(scope)) : [];
  if (withheld.length) errors.scopes = [...(errors.scopes ?? []), 'can only contain available scopes'];
  if (input.expiresAt && input.expiresAt < today(deps.clock.now())) errors.expires_at = ['must be in the future'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const token = plaintext ?? `${PREFIX}${randomToken(20)}`;
  const row = await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: input.userId,
      name: input.name.trim(),
      token_digest: sha256Hex(token),
      scopes: input.scopes.join(' '),
      expires_at: input.expiresAt ?? null,
      revoked: 0,
      impersonation: input.impersonation ? 1 : 0,
      last_used_at: null,
      created_at: deps.clock.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}
