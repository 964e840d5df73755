// What `git-lfs-authenticate <path> <operation>` over SSH prints (gitlab-shell's lfsauthenticate command
// with GitLab's /internal/lfs_authenticate): where the repository's LFS API is, and the Authorization
// header git-lfs sends there until `expires_in` runs out. The caller has already been allowed to fetch
// (download) or push (upload) by the git access decision.
import type { Deps } from '../../platform/deps.js';
import { projectLfsEnabled } from '../../accounts/api.js';
import type { GitActor, GitTarget } from '../git-http/git-access.js';
import { basicAuthorization, issueLfsToken, lfsUsername, LFS_TOKEN_TTL_SECONDS, type LfsTokenActor } from '../git-http/lfs-token.js';
import { repositoryHttpUrl } from './batch.js';

export interface LfsSshAuthentication {
  header: { Authorization: string };
  href: string;
  expires_in: number;
}

/** The answer for an SSH actor (a user's key or a deploy key), or null where LFS is off. */
export function lfsSshAuthentication(deps: Deps, actor: GitActor, target: GitTarget): LfsSshAuthentication | null {
  if (!deps.config.lfsEnabled || target.kind !== 'project' || !target.project || !projectLfsEnabled(target.project)) return null;
  let tokenActor: LfsTokenActor;
  let username: string | null = null;
  if (actor.kind === 'user') {
    tokenActor = { kind: 'user', id: actor.user.id };
    username = actor.user.username;
  } else if (actor.kind === 'deploy_key') tokenActor = { kind: 'deploy_key', id: actor.keyId };
  else return null;
  return {
    header: { Authorization: basicAuthorization(lfsUsername(tokenActor, username), issueLfsToken(deps, tokenActor)) },
    href: `${repositoryHttpUrl(deps, target.project.full_path)}/info/lfs`,
    expires_in: LFS_TOKEN_TTL_SECONDS,
  };
}
