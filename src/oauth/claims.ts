// The OpenID Connect claims GitLab publishes (GitLab's OAuth documentation): profile claims always, the
// primary e-mail only with the `email` scope (otherwise the public e-mail).
import type { Deps } from '../platform/deps.js';
import { type UserRow, avatarUrl, userWebUrl } from '../accounts/api.js';
import { ACCESS } from '../platform/auth/access-levels.js';

export function userClaims(deps: Deps, user: UserRow, scopes: string[]) {
  const base = deps.config.baseUrl;
  const email = scopes.includes('email') ? user.email : user.public_email || null;
  return {
    name: user.name,
    nickname: user.username,
    preferred_username: user.username,
    email,
    email_verified: email !== null,
    website: user.website_url,
    profile: userWebUrl(base, user.username),
    picture: avatarUrl(base, user),
  };
}

// GitLab's role claims (config/initializers/doorkeeper_openid_connect.rb): per role, the full paths of
// the groups the user is a direct member of at exactly that role (User#owned_groups,
// maintainers_groups, developer_groups), in userinfo only. GitLab answers nil for none (`.presence`)
// and doorkeeper-openid-connect drops nil claims, so an empty role is left out, not an empty array.
const GROUP_ROLE_CLAIMS = [
  ['https://gitlab.org/claims/groups/owner', ACCESS.owner],
  ['https://gitlab.org/claims/groups/maintainer', ACCESS.maintainer],
  ['https://gitlab.org/claims/groups/developer', ACCESS.developer],
] as const;

export const GROUP_ROLE_CLAIM_NAMES = GROUP_ROLE_CLAIMS.map(([name]) => name);
export const GROUP_ROLE_LEVELS = GROUP_ROLE_CLAIMS.map(([, level]) => level);

/** The role claims of the user's direct memberships at GROUP_ROLE_LEVELS (finder.ts directGroupsAt), in path order. */
export function groupRoleClaims(groups: Array<{ full_path: string; access_level: number }>): Record<string, string[]> {
  const claims: Record<string, string[]> = {};
  for (const [name, level] of GROUP_ROLE_CLAIMS) {
    const paths = groups.filter((group) => Number(group.access_level) === level).map((group) => group.full_path);
    if (paths.length > 0) claims[name] = paths;
  }
  return claims;
}
