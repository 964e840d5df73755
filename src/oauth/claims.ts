// The OpenID Connect claims GitLab publishes (GitLab's OAuth documentation): profile claims always, the
// primary e-mail only with the `email` scope (otherwise the public e-mail).
import type { Deps } from '../platform/deps.js';
import { type UserRow, avatarUrl, userWebUrl } from '../accounts/api.js';

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
