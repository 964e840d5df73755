import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation, type DbTransaction } from '../platform/db/database.js';
import type { UserState } from '../platform/db/tables/accounts.js';
import { ConflictError, ValidationError } from '../platform/errors.js';
import { checkLength } from '../platform/http/params.js';
import { NAME_MAX, PROFILE_FIELD_MAX } from './text-limits.js';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.js';
import { pathProblems } from './paths.js';
import type { UserRow } from './lookup.js';
import { publishUserEvent } from './system-events.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { changeUserAvatar } from './change-user-avatar.js';
import { assignIdentity } from './identities.js';
import { currentSettings } from '../application-settings/api.js';

export interface CreateUserInput {
  username: string;
  name: string;
  email: string;
  password?: string;
  admin?: boolean;
  bio?: string;
  location?: string;
  website_url?: string;
  organization?: string;
  public_email?: string;
  private_profile?: boolean;
  pronouns?: string;
  /** A checked avatar file (avatar-change.ts), or null for none. */
  avatar?: UploadedFile | null;
  /** An external identity (identities.ts): both or neither. */
  provider?: string;
  extern_uid?: string;
  /** The user's personal project limit; the instance's default_projects_limit when not given. */
  projects_limit?: number;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function validateUserFields(input: Partial<CreateUserInput>, creating: boolean): void {
  const errors: Record<string, string[]> = {};
  if (creating || input.username !== undefined) {
    const problems = pathProblems(input.username ?? '', true);
    if (problems.length) errors.username = problems;
  }
  if ((creating || input.name !== undefined) && !input.name?.trim()) errors.name = ["can't be blank"];
  if ((creating || input.email !== undefined) && !EMAIL.test(input.email ?? '')) errors.email = ['is invalid'];
  // At creation the only address a user owns is the primary one (GitLab: "is not an email you own").
  if (creating && input.public_email && input.public_email.toLowerCase() !== input.email?.toLowerCase()) errors.public_email = ['is not an email you own'];
  checkLength(errors, 'name', input.name, NAME_MAX);
  for (const [field, max] of Object.entries(PROFILE_FIELD_MAX)) checkLength(errors, field, input[field as keyof typeof PROFILE_FIELD_MAX], max);
  if (input.projects_limit !== undefined && input.projects_limit < 0) errors.projects_limit = ['must be greater than or equal to 0'];
  if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
    errors.password = [`is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`];
  } else if (input.password !== undefined && input.password.length > MAX_PASSWORD_LENGTH) {
    errors.password = [`is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** A clash at creation as a form shows it: by the field it is about, with the rest of the sentence. */
export function takenAsFieldError(error: ConflictError): ValidationError {
  const [field, ...rest] = (error.detail ?? 'Username has already been taken').split(' ');
  return new ValidationError({ [field.toLowerCase()]: [rest.join(' ')] });
}

/** How a sign-up differs from an account an administrator makes (sign-up.ts). */
export interface CreateUserOptions {
  state?: UserState;
  /** The digest of the token that confirms the primary address; without it the address is confirmed. */
  confirmationDigest?: string;
  /** More work in the creating transaction (the sign-up's e-mails). */
  afterCreate?: (trx: DbTransaction, user: UserRow) => Promise<void>;
}

/** Create a user and their personal namespace in one transaction. */
export async function createUser(deps: Deps, input: CreateUserInput, options: CreateUserOptions = {}): Promise<UserRow> {
  validateUserFields(input, true);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  // Read before the transaction: the settings are read outside it, which would wait on it on SQLite.
  const projectsLimit = input.projects_limit ?? (await currentSettings(deps)).default_projects_limit;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          username: input.username,
          username_lower: input.username.toLowerCase(),
          name: input.name.trim(),
          email: input.email,
          email_lower: input.email.toLowerCase(),
          state: options.state ?? 'active',
          admin: input.admin ? 1 : 0,
          password_hash: passwordHash,
          bio: input.bio ?? '',
          location: input.location ?? '',
          website_url: input.website_url ?? '',
          organization: input.organization ?? '',
          pronouns: input.pronouns ?? '',
          public_email: input.public_email ?? '',
          private_profile: input.private_profile ? 1 : 0,
          projects_limit: projectsLimit,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('namespaces')
        .values({
          kind: 'user',
          name: input.username,
          path: input.username,
          full_path: input.username,
          full_path_lower: input.username.toLowerCase(),
          parent_id: null,
          owner_id: user.id,
          visibility: 'public',
          created_at: now,
          updated_at: now,
        })
        .execute();
      // The primary address is one of the user's addresses (GET /user/emails lists it), confirmed
      // unless the sign-up must confirm it first.
      const confirmation = options.confirmationDigest
        ? { confirmed_at: null, confirmation_digest: options.confirmationDigest, confirmation_sent_at: now }
        : { confirmed_at: now, confirmation_digest: null, confirmation_sent_at: null };
      await trx.insertInto('emails').values({ user_id: user.id, email: input.email, email_lower: input.email.toLowerCase(), ...confirmation, created_at: now, updated_at: now }).execute();
      if (input.avatar) user.avatar = await changeUserAvatar(trx, Number(user.id), input.avatar, now);
      await assignIdentity(trx, Number(user.id), input, now);
      await publishUserEvent(deps, trx, 'user.created', Number(user.id), null);
      await options.afterCreate?.(trx, user);
      return user;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Which constraint a database reports first differs (SQLite and PostgreSQL disagree when both
    // clash), so ask as GitLab does: the address first, then the username. Users and groups share
    // the namespace path space; any other clash means the username is taken.
    const email = input.email.toLowerCase();
    const emailTaken = await deps.db.selectFrom('emails').select('user_id').where('email_lower', '=', email).executeTakeFirst()
      ?? await deps.db.selectFrom('users').select('id').where('email_lower', '=', email).executeTakeFirst();
    if (emailTaken) throw new ConflictError('Email has already been taken');
    throw new ConflictError('Username has already been taken');
  }
}
