// Read-side queries of the OAuth pages and endpoints: a user's own applications, the applications
// holding a live token of theirs ("Authorized applications"), and the groups in their OpenID claims.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import type { ApplicationRow } from './client-auth.js';
import { directGroupPathsSql, membershipGroupPathsSql } from '../platform/auth/membership-queries.js';

/** The page lists at most this many applications of each kind (bounded lists). */
const LIST_LIMIT = 200;
/** OpenID Connect `groups` and `groups_direct` claims: at most this many paths each (the role claims: in all). */
const GROUPS_LIMIT = 1000;

export function ownApplications(deps: Deps, userId: number): Promise<ApplicationRow[]> {
  return deps.db.selectFrom('oauth_applications').selectAll().where('owner_id', '=', userId).orderBy('id').limit(LIST_LIMIT).execute();
}

/** An application of the user's own, by id; anything else (missing, someone else's) is not found. */
export async function findOwnApplication(deps: Deps, userId: number, id: number): Promise<ApplicationRow> {
  const application = Number.isInteger(id) ? await deps.db.selectFrom('oauth_applications').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!application || Number(application.owner_id) !== userId) throw new NotFoundError('Application');
  return application;
}

/** Applications holding a live token (unexpired, or refreshable) of the user, with the first grant's time. */
export function authorizedApplications(deps: Deps, userId: number, now: number) {
  return deps.db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_applications as a', 'a.id', 't.application_id')
    .select(['a.id', 'a.name'])
    .select((eb) => [eb.fn.min('t.created_at').as('first_at')])
    .where('t.user_id', '=', userId)
    .where('t.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('t.expires_in', 'is', null), eb(eb('t.created_at', '+', eb('t.expires_in', '*', 1000)), '>', now), eb('t.refresh_digest', 'is not', null)]))
    .groupBy(['a.id', 'a.name'])
    .orderBy('a.name')
    .limit(LIST_LIMIT)
    .execute();
}

/**
 * Full paths of the groups the user is a member of and of every group below them, expired memberships
 * left out (the OIDC `groups` claim, GitLab's membership_groups; groups shared with theirs are not in it).
 */
export async function memberGroupPaths(deps: Deps, userId: number): Promise<string[]> {
  const { rows } = await membershipGroupPathsSql(userId, deps.clock.now(), GROUPS_LIMIT).execute(deps.db);
  return rows.map((row) => row.full_path);
}

/**
 * Full paths of the groups the user is a direct, live member of (the ID token's `groups_direct` claim,
 * GitLab's User#groups): not the groups below them, nor those shared with theirs.
 */
export async function directGroupPaths(deps: Deps, userId: number): Promise<string[]> {
  const { rows } = await directGroupPathsSql(userId, deps.clock.now(), GROUPS_LIMIT).execute(deps.db);
  return rows.map((row) => row.full_path);
}

/** The groups the user is a direct, live member of at one of `levels`, with the level (userinfo's role claims). */
export async function directGroupsAt(deps: Deps, userId: number, levels: readonly number[]) {
  const { rows } = await directGroupPathsSql(userId, deps.clock.now(), GROUPS_LIMIT, levels).execute(deps.db);
  return rows;
}
