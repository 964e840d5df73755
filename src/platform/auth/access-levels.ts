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
