// Who is calling, as resolved from the request by the token resolvers (PAT, OAuth, session).
import type { SubjectFinders } from './subjects.js';

export interface AuthUser {
  id: number;
  username: string;
  name: string;
  state: 'active' | 'blocked';
  admin: boolean;
  otpRequired: boolean;
}

export type CredentialKind = 'personal_access_token' | 'oauth' | 'session';

export interface Principal {
  user: AuthUser;
  scopes: string[];
  via: CredentialKind;
  tokenId: number | null;
  /** The real caller when Sudo switched `user` to someone else. */
  sudoFrom?: AuthUser;
}

/** The result of looking a token string up. `null` means "not a token of mine": try the next resolver. */
export type TokenLookup = { status: 'ok'; principal: Principal } | { status: 'expired' } | { status: 'revoked' } | null;

export type TokenResolver = (token: string) => Promise<TokenLookup>;

/** Resolvers are registered by features (accounts registers PATs, oauth registers access tokens). */
export interface AuthRegistry {
  oauth: TokenResolver[];
  personalAccessToken: TokenResolver[];
  findUserForSudo?: (idOrUsername: string) => Promise<AuthUser | null>;
  /** Project and group look-ups with their ability check (accounts registers them). */
  subjects?: SubjectFinders;
}

export function newAuthRegistry(): AuthRegistry {
  return { oauth: [], personalAccessToken: [] };
}
