// Users' external identities (GitLab's Identity: a provider and the user's id there, `extern_uid`),
// set by administrators with `provider` and `extern_uid` on POST/PUT /users (Users::BuildService and
// Users::UpdateService#assign_identity: the user's identity for that provider is created or its
// extern_uid replaced), shown in the admin and own views of a user, removed one provider at a time.
import type { Executor } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';

export interface IdentityInput {
  provider?: string;
  extern_uid?: string;
}

/** GitLab's Entities::Identity (with EE's saml_provider_id, always null: Kiln has no SAML providers). */
export interface IdentityEntity {
  provider: string;
  extern_uid: string;
  saml_provider_id: null;
}

/** Each user's identities by user id, in one query for a whole page of users. */
export async function identitiesOf(db: Executor, userIds: number[]): Promise<Map<number, IdentityEntity[]>> {
  const byUser = new Map<number, IdentityEntity[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db.selectFrom('identities').select(['user_id', 'provider', 'extern_uid']).where('user_id', 'in', userIds).orderBy('id').execute();
  for (const row of rows) byUser.get(Number(row.user_id))?.push({ provider: row.provider, extern_uid: row.extern_uid, saml_provider_id: null });
  return byUser;
}

/** Create the user's identity for the provider, or change its extern_uid; nothing without both. */
export async function assignIdentity(trx: Executor, userId: number, input: IdentityInput, now: number): Promise<void> {
  const { provider, extern_uid: externUid } = input;
  if (!provider || !externUid) return;
  const taken = await trx.selectFrom('identities').select('user_id').where('provider', '=', provider).where('extern_uid', '=', externUid).executeTakeFirst();
  // Another user's account at the provider: GitLab's uniqueness validation of extern_uid per provider.
  if (taken && Number(taken.user_id) !== userId) throw new ValidationError({ 'identities.extern_uid': ['has already been taken'] });
  try {
    await trx.insertInto('identities')
      .values({ user_id: userId, provider, extern_uid: externUid, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'provider']).doUpdateSet({ extern_uid: externUid, updated_at: now }))
      .execute();
  } catch (error) {
    // A concurrent writer took the external account between the check and the write.
    if (isUniqueViolation(error)) throw new ValidationError({ 'identities.extern_uid': ['has already been taken'] });
    throw error;
  }
}

/** DELETE /users/:id/identities/:provider: 404 "Identity Not Found" when the user has none for it. */
export async function deleteIdentity(db: Executor, userId: number, provider: string): Promise<void> {
  const deleted = await db.deleteFrom('identities').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError('Identity');
}
