// The deploy key and deploy token settings pages: a project's for those who administer it
// (Maintainers), a group's tokens for its Owners (admin_group), the same abilities as the API.
// Group patterns first: `groups/<path>/-/deploy_tokens` would also match the project pattern.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage, type PageContext } from '../../platform/web/page-route.js';
import type { PageOutcome } from '../../platform/web/page.js';
import { DEPLOY_KEYS_PATTERN, DEPLOY_KEY_ACTION_PATTERN, addDeployKeyFromForm, deployKeyActionFromForm, renderDeployKeys } from './deploy-keys-page.js';
import {
  GROUP_DEPLOY_TOKENS_PATTERN, GROUP_REVOKE_TOKEN_PATTERN, PROJECT_DEPLOY_TOKENS_PATTERN, PROJECT_REVOKE_TOKEN_PATTERN,
  createDeployTokenFromForm, groupTokenOwner, projectTokenOwner, renderDeployTokens, revokeDeployTokenFromForm, type TokenOwner,
} from './deploy-tokens-page.js';

type TokenHandler = (context: PageContext, target: TokenOwner) => Promise<PageOutcome>;

export function deployPages(app: FastifyInstance, deps: Deps): void {
  const groupTokens: ['GET' | 'POST', RegExp, TokenHandler][] = [
    ['GET', GROUP_DEPLOY_TOKENS_PATTERN, (context, target) => renderDeployTokens(context, target)],
    ['POST', GROUP_DEPLOY_TOKENS_PATTERN, createDeployTokenFromForm],
    ['POST', GROUP_REVOKE_TOKEN_PATTERN, revokeDeployTokenFromForm],
  ];
  for (const [method, pattern, handler] of groupTokens) {
    namespacedPage(app, deps, { method, pattern, ability: { group: 'admin_group' }, handler: async (context) => handler(context, groupTokenOwner(await context.group())) });
  }
  const projectTokens: typeof groupTokens = [
    ['GET', PROJECT_DEPLOY_TOKENS_PATTERN, (context, target) => renderDeployTokens(context, target)],
    ['POST', PROJECT_DEPLOY_TOKENS_PATTERN, createDeployTokenFromForm],
    ['POST', PROJECT_REVOKE_TOKEN_PATTERN, revokeDeployTokenFromForm],
  ];
  for (const [method, pattern, handler] of projectTokens) {
    namespacedPage(app, deps, { method, pattern, ability: { project: 'admin_project' }, handler: async (context) => handler(context, projectTokenOwner(await context.project())) });
  }
  namespacedPage(app, deps, { method: 'GET', pattern: DEPLOY_KEYS_PATTERN, ability: { project: 'admin_project' }, handler: async (context) => renderDeployKeys(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: DEPLOY_KEYS_PATTERN, ability: { project: 'admin_project' }, handler: async (context) => addDeployKeyFromForm(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: DEPLOY_KEY_ACTION_PATTERN, ability: { project: 'admin_project' }, handler: async (context) => deployKeyActionFromForm(context, await context.project()) });
}
