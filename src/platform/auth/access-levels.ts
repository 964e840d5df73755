// GitLab's access levels (Gitlab::Access) and the visibility rules that decide who reads what.
export const ACCESS = {
  none: 0,
  minimal: 5,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

export type AccessLevel = (typeof ACCESS)[keyof typeof ACCESS];

export const VALID_MEMBER_LEVELS = [10, 20, 30, 40, 50];

/** The role a member level is shown as (GitLab's Gitlab::Access.options_with_owner). */
export const ROLE_NAMES: Readonly<Record<number, string>> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };
