// Hooks by owner, and one hook of an owner (404 "Not found" for another owner's).
import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { HookOwner } from './save-hook.js';
import type { HookRow } from './entities.js';

export function hooksQuery(deps: Deps, owner: HookOwner) {
  let query = deps.db.selectFrom('web_hooks').selectAll().where('type', '=', owner.type);
  if (owner.type === 'ProjectHook') query = query.where('project_id', '=', owner.projectId!);
  if (owner.type === 'GroupHook') query = query.where('group_id', '=', owner.groupId!);
  return query.orderBy('id');
}

export async function findHook(deps: Deps, owner: HookOwner, id: number): Promise<HookRow> {
  const hook = await hooksQuery(deps, owner).where('id', '=', id).executeTakeFirst();
  if (!hook) throw new RecordNotFoundError();
  return hook;
}

export async function findHookById(deps: Deps, id: number): Promise<HookRow | undefined> {
  return deps.db.selectFrom('web_hooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function recentLogsQuery(deps: Deps, hookId: number) {
  return deps.db.selectFrom('web_hook_logs').selectAll().where('web_hook_id', '=', hookId).orderBy('id', 'desc');
}

/** The id of a group's first project, if it has one. */
export async function firstProjectOfGroup(deps: Deps, groupId: number): Promise<number | null> {
  const row = await deps.db.selectFrom('projects').select('id').where('namespace_id', '=', groupId).orderBy('id').executeTakeFirst();
  return row ? Number(row.id) : null;
}
