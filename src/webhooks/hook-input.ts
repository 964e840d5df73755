// The parameters of POST and PUT on project, group and system hooks (lib/api/project_hooks.rb,
// group_hooks and system_hooks.rb): the URL, its name and description, the token (write-only), SSL
// verification, the branch filter and every event flag of the hook's type.
import { p, type ParamRule, type ParamSchema } from '../platform/http/params.js';
import type { WebHookType } from '../platform/db/tables/webhooks.js';
import { flagNames } from './model.js';

export function hookParams(type: WebHookType, create: boolean): ParamSchema {
  const schema: Record<string, ParamRule> = {
    url: create ? p.string.required() : p.string.optional(),
    name: p.string.optional({ max: 255 }),
    description: p.string.optional({ max: 2048 }),
    token: p.string.optional({ max: 255 }),
    enable_ssl_verification: p.boolean.optional(),
  };
  for (const flag of flagNames(type)) schema[flag] = p.boolean.optional();
  if (type !== 'SystemHook') {
    schema.push_events_branch_filter = p.string.optional({ allowBlank: true });
    schema.branch_filter_strategy = p.string.optional({ values: ['wildcard', 'regex', 'all_branches'] });
  }
  return schema;
}

export interface HookInput {
  url?: string;
  name?: string;
  description?: string;
  token?: string;
  enableSslVerification?: boolean;
  flags: Record<string, boolean>;
  branchFilter?: string;
  branchFilterStrategy?: string;
}

/** The parsed parameters as an action's input: only what the caller sent. */
export function hookInput(type: WebHookType, params: Record<string, unknown>): HookInput {
  const flags: Record<string, boolean> = {};
  for (const flag of flagNames(type)) if (params[flag] !== undefined) flags[flag] = params[flag] as boolean;
  return {
    url: params.url as string | undefined,
    name: params.name as string | undefined,
    description: params.description as string | undefined,
    token: params.token as string | undefined,
    enableSslVerification: params.enable_ssl_verification as boolean | undefined,
    flags,
    branchFilter: params.push_events_branch_filter as string | undefined,
    branchFilterStrategy: params.branch_filter_strategy as string | undefined,
  };
}
