// OAuth applications: register, renew the secret, delete, and their wire shape (GitLab's OAuth documentation
// §13). The secret is stored as a digest and returned only by create and renew.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import type { ApplicationRow } from './client-auth.js';
import { newSecret } from './issue-token.js';
import { ALL_SCOPES, availableScopes, parseScopes } from './scopes.js';
import { splitRedirectUris, validateRedirectUris } from './redirect-uri.js';
import { findUserRow, toAuthUser } from '../accounts/api.js';

export interface ApplicationInput {
  name: string;
  redirectUri: string;
  scopes: string[] | string;
  confidential: boolean;
  trusted?: boolean;
  ownerId: number | null;
}

function scopeList(scopes: string[] | string): string[] {
  if (Array.isArray(scopes)) return [...new Set(scopes.flatMap((scope) => scope.split(' ')).filter((scope) => scope !== ''))];
  const parsed = parseScopes(scopes);
  return parsed.ok ? parsed.scopes : [];
}

/**
 * The scopes the application may carry: those available to its owner, or all of them for an
 * instance-wide application (no owner: registered through the administrators' API or by Kiln itself).
 */
async function scopesForOwner(deps: Deps, ownerId: number | null): Promise<string[]> {
  if (ownerId === null) return ALL_SCOPES;
  const owner = await findUserRow(deps, ownerId);
  return availableScopes(owner ? toAuthUser(owner) : null);
}

async function validate(deps: Deps, input: ApplicationInput): Promise<{ scopes: string[]; redirectUri: string }> {
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["can't be blank"];
  const redirectProblems = validateRedirectUris(input.redirectUri ?? '', deps.config.allowInsecureRedirectUris);
  if (redirectProblems.length) errors.redirect_uri = redirectProblems;
  const scopes = scopeList(input.scopes);
  if (scopes.length === 0) errors.scopes = ["can't be blank"];
  else {
    // A non-admin's application may not carry the admin scopes (`sudo`): the form does not offer them
    // and the server refuses them with the error of any scope not available (Doorkeeper's check).
    const allowed = await scopesForOwner(deps, input.ownerId);
    if (!scopes.every((scope) => allowed.includes(scope))) errors.scopes = ["doesn't match configured on the server."];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { scopes, redirectUri: splitRedirectUris(input.redirectUri).join('\n') };
}

export async function createApplication(deps: Deps, input: ApplicationInput): Promise<{ application: ApplicationRow; secret: string }> {
  const { scopes, redirectUri } = await validate(deps, input);
  const secret = newSecret();
  const now = deps.clock.now();
  const application = await deps.db
    .insertInto('oauth_applications')
    .values({
      uid: newSecret(),
      secret_digest: sha256Hex(secret),
      name: input.name.trim(),
      redirect_uri: redirectUri,
      scopes: scopes.join(' '),
      confidential: input.confidential ? 1 : 0,
      trusted: input.trusted ? 1 : 0,
      owner_id: input.ownerId,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { application, secret };
}

export async function updateApplication(deps: Deps, application: ApplicationRow, input: Omit<ApplicationInput, 'ownerId'>): Promise<ApplicationRow> {
  const { scopes, redirectUri } = await validate(deps, { ...input, ownerId: application.owner_id === null ? null : Number(application.owner_id) });
  return deps.db
    .updateTable('oauth_applications')
    .set({ name: input.name.trim(), redirect_uri: redirectUri, scopes: scopes.join(' '), confidential: input.confidential ? 1 : 0, updated_at: deps.clock.now() })
    .where('id', '=', application.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function renewApplicationSecret(deps: Deps, application: ApplicationRow): Promise<{ application: ApplicationRow; secret: string }> {
  const secret = newSecret();
  const updated = await deps.db
    .updateTable('oauth_applications')
    .set({ secret_digest: sha256Hex(secret), updated_at: deps.clock.now() })
    .where('id', '=', application.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { application: updated, secret };
}

export async function deleteApplication(deps: Deps, application: ApplicationRow): Promise<void> {
  // Grants and tokens go with it (ON DELETE CASCADE): a deleted client's tokens stop working.
  await deps.db.deleteFrom('oauth_access_tokens').where('application_id', '=', application.id).execute();
  await deps.db.deleteFrom('oauth_access_grants').where('application_id', '=', application.id).execute();
  await deps.db.deleteFrom('oauth_applications').where('id', '=', application.id).execute();
}

export async function findApplication(deps: Deps, id: number): Promise<ApplicationRow> {
  const application = await deps.db.selectFrom('oauth_applications').selectAll().where('id', '=', id).executeTakeFirst();
  if (!application) throw new NotFoundError('Application');
  return application;
}

/** GitLab's `Application` entity (lib/api/entities/application.rb), plus `secret` when just generated. */
export function applicationEntity(application: ApplicationRow, secret?: string) {
  return {
    id: Number(application.id),
    application_id: application.uid,
    application_name: application.name,
    callback_url: application.redirect_uri,
    confidential: application.confidential === 1,
    ...(secret === undefined ? {} : { secret }),
  };
}
