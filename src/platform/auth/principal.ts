// Who is calling, as resolved from the request by the token resolvers (PAT, OAuth, session).

export interface AuthUser {
  id: number;
  username: string;
  name: string;
  /** Only `active` users act; `deactivated` ones are reactivated by signing in on the web again. */
  state: 'active' | 'blocked' | 'blocked_pending_approval' | 'deactivated' | 'banned';
  admin: boolean;
  otpRequired: boolean;
}

/**
 * GitLab's blocked states: blocked or banned by an administrator, or signed up and awaiting an
 * administrator's approval (User::BLOCKED_STATES); all are refused everywhere a blocked user is.
 */
export function isBlockedState(state: AuthUser['state']): boolean {
  return state === 'blocked' || state === 'banned' || state === 'blocked_pending_approval';
}

export type CredentialKind = 'personal_access_token' | 'oauth' | 'session' | 'ci_job_token';

export interface Principal {
  user: AuthUser;
  scopes: string[];
  via: CredentialKind;
  tokenId: number | null;
  /** The real caller when Sudo switched `user` to someone else. */
  sudoFrom?: AuthUser;
  /**
   * A running CI job's token (`ci_job_token`): `user` is the job's user, and only the projects the
   * job's project may reach (the targets' job token scopes) are open to it.
   */
  job?: { id: number; projectId: number; projectPath: string };
}

/**
 * The result of looking a token string up. `null` means "not a token of mine": try the next resolver.
 * `refused`: a live token whose user may not use it now (the API's 403 with `reason`).
 */
export type TokenLookup = { status: 'ok'; principal: Principal } | { status: 'expired' } | { status: 'revoked' } | { status: 'refused'; reason: string } | null;

export type TokenResolver = (token: string) => Promise<TokenLookup>;
