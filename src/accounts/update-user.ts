import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { confirmedEmailsOf } from './emails-finder.js';
import { hashPassword } from './passwords.js';
import { validateUserFields, type CreateUserInput } from './create-user.js';
import type { UserRow } from './lookup.js';
import { changeUserAvatar } from './change-user-avatar.js';
import { assignIdentity } from './identities.js';

export type UpdateUserInput = Partial<Omit<CreateUserInput, 'username'>>;

/** GitLab's public_email validation: one of the user's confirmed addresses ("is not an email you own"). */
async function checkPublicEmail(deps: Deps, userId: number, input: UpdateUserInput): Promise<void> {
  if (!input.public_email) return;
  const owned = [...(await confirmedEmailsOf(deps, userId)), ...(input.email ? [input.email] : [])];
  if (!owned.some((email) => email.toLowerCase() === input.public_email!.toLowerCase())) throw new ValidationError({ public_email: ['is not an email you own'] });
}

export async function updateUser(deps: Deps, userId: number, input: UpdateUserInput): Promise<UserRow> {
  validateUserFields(input, false);
  await checkPublicEmail(deps, userId, input);
  const changes: Record<string, unknown> = { updated_at: deps.clock.now() };
  for (const field of ['bio', 'location', 'website_url', 'organization', 'public_email', 'pronouns'] as const) {
    if (input[field] !== undefined) changes[field] = input[field];
  }
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.email !== undefined) Object.assign(changes, { email: input.email, email_lower: input.email.toLowerCase() });
  if (input.admin !== undefined) changes.admin = input.admin ? 1 : 0;
  if (input.private_profile !== undefined) changes.private_profile = input.private_profile ? 1 : 0;
  if (input.projects_limit !== undefined) changes.projects_limit = input.projects_limit;
  if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (input.email !== undefined) {
        const other = await trx.selectFrom('emails').select('user_id').where('email_lower', '=', input.email.toLowerCase()).executeTakeFirst();
        if (other && Number(other.user_id) !== userId) throw new ConflictError('Email has already been taken');
        // The new primary address is confirmed (an administrator set it); the old one stays a
        // confirmed secondary address, as GitLab keeps it.
        if (other) await trx.updateTable('emails').set({ confirmed_at: now, confirmation_digest: null, updated_at: now }).where('email_lower', '=', input.email.toLowerCase()).where('confirmed_at', 'is', null).execute();
        else await trx.insertInto('emails').values({ user_id: userId, email: input.email, email_lower: input.email.toLowerCase(), confirmed_at: now, confirmation_digest: null, confirmation_sent_at: null, created_at: now, updated_at: now }).execute();
      }
      if (input.avatar !== undefined) changes.avatar = await changeUserAvatar(trx, userId, input.avatar, now);
      const row = await trx.updateTable('users').set(changes).where('id', '=', userId).returningAll().executeTakeFirst();
      if (!row) throw new NotFoundError('User');
      await assignIdentity(trx, userId, input, now);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Email has already been taken');
    throw error;
  }
}
