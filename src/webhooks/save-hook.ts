// Create or edit a hook. The URL is judged as GitLab's public_url validator does (local addresses
// refused unless the admin setting or the allow-list admits them); editing re-enables a disabled hook.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { DbTransaction } from '../platform/db/statements.js';
import type { WebHookType } from '../platform/db/tables/webhooks.js';
import { ApiError } from '../platform/http/api-error.js';
import { branchFilterError, defaultFlags, FIRED_FLAGS, HEALTHY } from './model.js';
import { ValidationError } from '../platform/errors.js';
import type { HookInput } from './hook-input.js';
import { hookFlags, type HookRow } from './entities.js';
import { blockedHookUrl, outboundRules } from './outbound.js';

export interface HookOwner {
  type: WebHookType;
  projectId?: number;
  groupId?: number;
}

async function checkUrl(deps: Deps, type: WebHookType, url: string): Promise<void> {
  const reason = blockedHookUrl(url, await outboundRules(deps, type === 'SystemHook' ? 'system' : 'web'));
  if (reason) throw new ApiError(422, { message: { url: [`is blocked: ${reason}`] } });
}

function checkBranchFilter(filter: string | null, strategy: string): void {
  const error = branchFilterError(filter, strategy);
  if (error) throw new ValidationError({ push_events_branch_filter: [error] });
}

function flagColumns(flags: Record<string, boolean>) {
  return Object.fromEntries(FIRED_FLAGS.map((flag) => [flag, flags[flag] ? 1 : 0])) as Record<(typeof FIRED_FLAGS)[number], number>;
}

/**
 * GitLab's plan limits on hooks (plan_limits.project_hooks 100, group_hooks 50; system hooks have none
 * in GitLab, Kiln keeps them to 100 too): every hook is an outgoing request per event.
 */
export const HOOK_LIMITS: Record<WebHookType, { limit: number; name: string }> = {
  ProjectHook: { limit: 100, name: 'project hooks' },
  GroupHook: { limit: 50, name: 'group hooks' },
  SystemHook: { limit: 100, name: 'system hooks' },
};

/**
 * Refuses a hook over its owner's limit with GitLab's Limitable message. The owner's row is written
 * first (a no-op update): it serialises the creations of one owner across requests and nodes, so two
 * creations at 99 cannot both pass the count (PostgreSQL's row lock, SQLite's write lock). System
 * hooks, made by administrators only, have no owner row: their count is not serialised on PostgreSQL.
 */
async function checkHookLimit(trx: DbTransaction, owner: HookOwner): Promise<void> {
  if (owner.type === 'ProjectHook') await trx.updateTable('projects').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', owner.projectId!).execute();
  else if (owner.type === 'GroupHook') await trx.updateTable('namespaces').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', owner.groupId!).execute();
  let query = trx.selectFrom('web_hooks').select((eb) => eb.fn.countAll<number>().as('count')).where('type', '=', owner.type);
  if (owner.type === 'ProjectHook') query = query.where('project_id', '=', owner.projectId!);
  if (owner.type === 'GroupHook') query = query.where('group_id', '=', owner.groupId!);
  const { count } = await query.executeTakeFirstOrThrow();
  const { limit, name } = HOOK_LIMITS[owner.type];
  if (Number(count) >= limit) throw new ValidationError({ base: [`Maximum number of ${name} (${limit}) exceeded`] });
}

export async function createHook(deps: Deps, owner: HookOwner, input: HookInput): Promise<HookRow> {
  const url = input.url!.trim();
  await checkUrl(deps, owner.type, url);
  checkBranchFilter(input.branchFilter ?? null, input.branchFilterStrategy ?? 'wildcard');
  const flags = { ...defaultFlags(owner.type), ...input.flags };
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    await checkHookLimit(trx, owner);
    return insertHook(trx, deps, owner, input, url, flags, now);
  });
}

function insertHook(trx: DbTransaction, deps: Deps, owner: HookOwner, input: HookInput, url: string, flags: Record<string, boolean>, now: number): Promise<HookRow> {
  return trx
    .insertInto('web_hooks')
    .values({
      type: owner.type,
      project_id: owner.projectId ?? null,
      group_id: owner.groupId ?? null,
      url,
      name: input.name ?? null,
      description: input.description ?? null,
      token: input.token ? deps.box.seal(input.token) : null,
      flags: JSON.stringify(flags),
      ...flagColumns(flags),
      push_events_branch_filter: input.branchFilter ?? null,
      branch_filter_strategy: input.branchFilterStrategy ?? 'wildcard',
      enable_ssl_verification: input.enableSslVerification === false ? 0 : 1,
      disabled_until: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateHook(deps: Deps, hook: HookRow, input: HookInput): Promise<HookRow> {
  if (input.url !== undefined) await checkUrl(deps, hook.type, input.url.trim());
  checkBranchFilter(input.branchFilter ?? hook.push_events_branch_filter, input.branchFilterStrategy ?? hook.branch_filter_strategy);
  const flags = { ...hookFlags(hook), ...input.flags };
  return deps.db
    .updateTable('web_hooks')
    .set({
      ...(input.url !== undefined ? { url: input.url.trim() } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      // An empty token clears it; an absent one keeps it (the API never shows it, so clients cannot resend it).
      ...(input.token !== undefined ? { token: input.token ? deps.box.seal(input.token) : null } : {}),
      ...(input.enableSslVerification !== undefined ? { enable_ssl_verification: input.enableSslVerification ? 1 : 0 } : {}),
      ...(input.branchFilter !== undefined ? { push_events_branch_filter: input.branchFilter } : {}),
      ...(input.branchFilterStrategy !== undefined ? { branch_filter_strategy: input.branchFilterStrategy } : {}),
      flags: JSON.stringify(flags),
      ...flagColumns(flags),
      ...HEALTHY,
      updated_at: deps.clock.now(),
    })
    .where('id', '=', hook.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteHook(deps: Deps, hook: HookRow): Promise<void> {
  await deps.db.deleteFrom('web_hooks').where('id', '=', hook.id).execute();
}
