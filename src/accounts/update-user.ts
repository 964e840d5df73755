import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { hashPassword } from './passwords.js';
import { validateUserFields, type CreateUserInput } from './create-user.js';
import type { UserRow } from './lookup.js';

export type UpdateUserInput = Partial<Omit<CreateUserInput, 'username'>>;

export async function updateUser(deps: Deps, userId: number, input: UpdateUserInput): Promise<UserRow> {
  validateUserFields(input, false);
  const changes: Record<string, unknown> = { updated_at: deps.clock.now() };
  for (const field of ['bio', 'location', 'website_url', 'organization', 'public_email'] as const) {
    if (input[field] !== undefined) changes[field] = input[field];
  }
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.email !== undefined) Object.assign(changes, { email: input.email, email_lower: input.email.toLowerCase() });
  if (input.admin !== undefined) changes.admin = input.admin ? 1 : 0;
  if (input.private_profile !== undefined) changes.private_profile = input.private_profile ? 1 : 0;
  if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
  try {
    const row = await deps.db.updateTable('users').set(changes).where('id', '=', userId).returningAll().executeTakeFirst();
    if (!row) throw new NotFoundError('User');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Email has already been taken');
    throw error;
  }
}

/** Block or unblock; a blocked user's tokens stop working at once (checked on every request). */
export async function setUserState(deps: Deps, userId: number, state: 'active' | 'blocked'): Promise<boolean> {
  const result = await deps.db
    .updateTable('users')
    .set({ state, updated_at: deps.clock.now() })
    .where('id', '=', userId)
    .where('state', '!=', state)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
