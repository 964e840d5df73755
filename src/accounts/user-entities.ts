// Wire shapes of users (GitLab's UserBasic, User, UserPublic/UserWithAdmin), fields listed explicitly.
import { isoTime } from '../platform/clock.js';
import { defineEntity, field, type Field } from '../platform/http/entity.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { UserRow } from './lookup.js';
import { avatarUrl, type AvatarOwner } from './avatar-urls.js';
import type { IdentityEntity } from './identities.js';
import { mayCreatePersonalProject } from './personal-projects.js';

export { avatarUrl, type AvatarOwner };

export function userWebUrl(baseUrl: string, username: string): string {
  return `${baseUrl}/${username}`;
}

export function toAuthUser(row: Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'admin' | 'otp_required'>): AuthUser {
  return { id: Number(row.id), username: row.username, name: row.name, state: row.state, admin: row.admin === 1, otpRequired: row.otp_required === 1 };
}

/** What UserBasic is built from: select these columns (`avatar` included) with the user. */
export type UserLike = Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar'>;

/** What the user entities are computed from. */
interface UserSource<U extends UserLike> {
  baseUrl: string;
  user: U;
}

// Each entity is one definition (platform/http/entity.ts): its object is one literal with every field
// and its serialiser is compiled from the same list. Extending an entity by spreading the smaller one's
// object first put every later field on V8's slow path (the User entity's own CPU was ~6 % of
// GET /users/:id in a profile).
const USER_BASIC_FIELDS = {
  id: field.integer(({ user }: UserSource<UserLike>) => Number(user.id)),
  username: field.string(({ user }: UserSource<UserLike>) => user.username),
  name: field.string(({ user }: UserSource<UserLike>) => user.name),
  state: field.string(({ user }: UserSource<UserLike>) => user.state),
  avatar_url: field.string(({ baseUrl, user }: UserSource<UserLike>) => avatarUrl(baseUrl, user)),
  web_url: field.string(({ baseUrl, user }: UserSource<UserLike>) => userWebUrl(baseUrl, user.username)),
};

const USER_BASIC_ENTITY = defineEntity<UserSource<UserLike>>()(USER_BASIC_FIELDS);

export function userBasic(baseUrl: string, user: UserLike) {
  return USER_BASIC_ENTITY.present({ baseUrl, user });
}

const blank = <S>() => field.string((_: S) => '');

/** GitLab's `User` entity: UserBasic plus the public profile. */
const USER_FIELDS = {
  ...USER_BASIC_FIELDS,
  created_at: field.nullableString(({ user }: UserSource<UserRow>) => isoTime(user.created_at)),
  bio: field.string(({ user }: UserSource<UserRow>) => user.bio),
  location: field.string(({ user }: UserSource<UserRow>) => user.location),
  public_email: field.string(({ user }: UserSource<UserRow>) => user.public_email),
  skype: blank<UserSource<UserRow>>(),
  linkedin: blank<UserSource<UserRow>>(),
  twitter: blank<UserSource<UserRow>>(),
  website_url: field.string(({ user }: UserSource<UserRow>) => user.website_url),
  organization: field.string(({ user }: UserSource<UserRow>) => user.organization),
  job_title: blank<UserSource<UserRow>>(),
  pronouns: field.nullableString(({ user }: UserSource<UserRow>) => (user.pronouns ? user.pronouns : null)),
  bot: field.boolean((_: UserSource<UserRow>) => false),
};

export const USER_ENTITY = defineEntity<UserSource<UserRow>>()(USER_FIELDS);

export function userProfile(baseUrl: string, user: UserRow) {
  return USER_ENTITY.present({ baseUrl, user });
}

/** What UserPublic adds is computed from: the user's identities and personal projects, loaded by the caller. */
interface PrivateUserSource extends UserSource<UserRow> {
  identities: IdentityEntity[];
  personalProjects: number;
}

const IDENTITIES: Field<PrivateUserSource, IdentityEntity[]> = {
  schema: {
    type: 'array',
    items: { type: 'object', properties: { provider: { type: 'string' }, extern_uid: { type: 'string' }, saml_provider_id: { type: 'null' } }, required: ['provider', 'extern_uid', 'saml_provider_id'] },
  },
  value: ({ identities }) => identities,
};

/**
 * What the user themself (or an administrator) sees: GitLab's UserPublic / UserWithAdmin. The user's
 * external identities and how many projects their personal namespace holds are loaded by the caller
 * (identitiesOf, personalProjectCounts: one query each for a page of users).
 */
export const USER_PRIVATE_ENTITY = defineEntity<PrivateUserSource>()({
  ...USER_FIELDS,
  last_sign_in_at: field.null<PrivateUserSource>(),
  confirmed_at: field.nullableString(({ user }: PrivateUserSource) => isoTime(user.created_at)),
  email: field.string(({ user }: PrivateUserSource) => user.email),
  theme_id: field.integer((_: PrivateUserSource) => 1),
  color_scheme_id: field.integer((_: PrivateUserSource) => 1),
  projects_limit: field.integer(({ user }: PrivateUserSource) => Number(user.projects_limit)),
  current_sign_in_at: field.null<PrivateUserSource>(),
  identities: IDENTITIES,
  can_create_group: field.boolean((_: PrivateUserSource) => true),
  can_create_project: field.boolean(({ user, personalProjects }: PrivateUserSource) => mayCreatePersonalProject(Number(user.projects_limit), personalProjects)),
  two_factor_enabled: field.boolean(({ user }: PrivateUserSource) => user.otp_required === 1),
  external: field.boolean((_: PrivateUserSource) => false),
  private_profile: field.boolean(({ user }: PrivateUserSource) => user.private_profile === 1),
  is_admin: field.boolean(({ user }: PrivateUserSource) => user.admin === 1),
  last_activity_on: field.nullableString(({ user }: PrivateUserSource) => user.last_activity_on),
});

export function userPrivate(baseUrl: string, user: UserRow, loaded: { identities?: IdentityEntity[]; personalProjects: number }) {
  return USER_PRIVATE_ENTITY.present({ baseUrl, user, identities: loaded.identities ?? [], personalProjects: loaded.personalProjects });
}

/** GitLab's UserActivity (GET /user/activities). */
export function userActivity(user: Pick<UserRow, 'username' | 'last_activity_on'>) {
  return { username: user.username, last_activity_on: user.last_activity_on, last_activity_at: user.last_activity_on };
}

/** GitLab's Email entity. */
export function emailEntity(email: { id: number; email: string; confirmed_at: number | null }) {
  return { id: Number(email.id), email: email.email, confirmed_at: isoTime(email.confirmed_at) };
}

/** GitLab's UserStarsProject (GET /projects/:id/starrers). */
export function starrerEntity(baseUrl: string, row: UserLike & { starred_at: number }) {
  return { starred_since: isoTime(row.starred_at), user: userBasic(baseUrl, row) };
}
