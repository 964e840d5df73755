import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { createPersonalAccessToken, scopesAvailableTo } from './create-personal-access-token.js';
import { revokePersonalAccessToken } from './revoke-personal-access-token.js';
import { tokenEntity } from './token-entities.js';
import { findToken, tokensQuery } from './personal-access-tokens-finder.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { findUser } from './lookup.js';

export function tokensRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/personal_access_tokens', summary: 'Create a personal access token for a user (administrators)', tags: ['personal_access_tokens'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), name: p.string.required(), scopes: p.strings.required(), expires_at: p.date.optional() },
    handler: async ({ params }) => {
      const user = await findUser(deps, params.id);
      // The user's own available scopes: an administrator cannot give a non-administrator `sudo` (docs/security.md).
      const { row, token } = await createPersonalAccessToken(deps, { userId: user.id, name: params.name, scopes: params.scopes, expiresAt: params.expires_at, availableScopes: scopesAvailableTo(Boolean(user.admin)) });
      return { ...tokenEntity(row, deps.clock.now()), token };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/personal_access_tokens', summary: 'List personal access tokens (your own; administrators may name a user)', tags: ['personal_access_tokens'], paginated: true,
    ability: { instance: 'log_in' },
    params: { user_id: p.integer.optional() },
    handler: async ({ params, actor, paginate }) => {
      const userId = canOnInstance(actor.user, 'admin_all_resources') ? params.user_id : actor.user.id;
      return (await paginate(tokensQuery(deps, userId))).map((row) => tokenEntity(row, deps.clock.now()));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/personal_access_tokens/self', summary: 'The token used for this request', tags: ['personal_access_tokens'],
    ability: { instance: 'log_in' },
    handler: async ({ actor }) => {
      if (actor.via !== 'personal_access_token' || actor.tokenId === null) throw new NotFoundError();
      const row = await findToken(deps, actor.tokenId);
      if (!row) throw new NotFoundError();
      return tokenEntity(row, deps.clock.now());
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/personal_access_tokens/:id', summary: 'Revoke a personal access token (your own; administrators any)', tags: ['personal_access_tokens'],
    ability: { instance: 'log_in' },
    params: { id: p.integer.required() },
    handler: async ({ params, actor }) => {
      const row = await findToken(deps, params.id);
      if (!row) throw new NotFoundError();
      if (row.user_id !== actor.user.id && !canOnInstance(actor.user, 'admin_all_resources')) throw new ForbiddenError();
      await revokePersonalAccessToken(deps, params.id);
      return undefined;
    },
  });
}
