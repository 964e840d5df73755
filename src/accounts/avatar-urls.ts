// The URLs of avatars: an uploaded file's (projects, groups, users) and a user's, which falls back to
// the generated SVG (avatar-route.ts).
import type { UserRow } from './lookup.js';

/** The URL GitLab gives an uploaded avatar (`/uploads/-/system/<model>/avatar/<id>/<file>`), null without one. */
export function uploadedAvatarUrl(baseUrl: string, model: 'project' | 'group' | 'user', id: number, filename: string | null): string | null {
  return filename === null ? null : `${baseUrl}/uploads/-/system/${model}/avatar/${id}/${encodeURIComponent(filename)}`;
}

/** What a user's avatar URL is built from: callers select `avatar` with the user, never a query per user. */
export type AvatarOwner = Pick<UserRow, 'id' | 'username' | 'avatar'>;

/**
 * The one place a user's avatar URL is made (entities, OpenID's `picture`, webhook payloads, pages,
 * their namespace): the uploaded file when there is one, else the generated SVG (avatar-route.ts).
 * Pages pass `''` as the base for a path on this host.
 */
export function avatarUrl(baseUrl: string, user: AvatarOwner): string {
  return uploadedAvatarUrl(baseUrl, 'user', Number(user.id), user.avatar) ?? `${baseUrl}/-/avatars/${encodeURIComponent(user.username)}.svg`;
}
