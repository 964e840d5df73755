// Wire shapes of users (GitLab's UserBasic, User, UserPublic/UserWithAdmin), fields listed explicitly.
import { isoTime } from '../platform/clock.js';
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

export function userBasic(baseUrl: string, user: UserLike) {
  return {
    id: Number(user.id),
    username: user.username,
    name: user.name,
    state: user.state,
    avatar_url: avatarUrl(baseUrl, user),
    web_url: userWebUrl(baseUrl, user.username),
  };
}

/** GitLab's `User` entity: UserBasic plus the public profile. */
export function userProfile(baseUrl: string, user: UserRow) {
  return {
    ...userBasic(baseUrl, user),
    created_at: isoTime(user.created_at),
    bio: user.bio,
    location: user.location,
    public_email: user.public_email,
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: user.website_url,
    organization: user.organization,
    job_title: '',
    pronouns: user.pronouns ? user.pronouns : null,
    bot: false,
  };
}

/**
 * What the user themself (or an administrator) sees: GitLab's UserPublic / UserWithAdmin. The user's
 * external identities and how many projects their personal namespace holds are loaded by the caller
 * (identitiesOf, personalProjectCounts: one query each for a page of users).
 */
export function userPrivate(baseUrl: string, user: UserRow, loaded: { identities?: IdentityEntity[]; personalProjects: number }) {
  return {
    ...userProfile(baseUrl, user),
    last_sign_in_at: null,
    confirmed_at: isoTime(user.created_at),
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: Number(user.projects_limit),
    current_sign_in_at: null,
    identities: loaded.identities ?? [],
    can_create_group: true,
    can_create_project: mayCreatePersonalProject(Number(user.projects_limit), loaded.personalProjects),
    two_factor_enabled: user.otp_required === 1,
    external: false,
    private_profile: user.private_profile === 1,
    is_admin: user.admin === 1,
    last_activity_on: user.last_activity_on,
  };
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
