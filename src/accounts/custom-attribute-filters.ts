// The `custom_attributes` filter of the user, group and project lists and `with_custom_attributes`
// (GitLab's CustomAttributesFilter and the entities' custom_attributes), for administrators only: for
// anyone else both are ignored, as GitLab ignores them. The attributes themselves are the
// custom-attributes feature's API; these read the same table.
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/index.js';

export type OwnerColumn = 'user_id' | 'group_id' | 'project_id';

/** `custom_attributes[key]=value` pairs of a request (query keys or a JSON object), for administrators. */
export function customAttributeFilter(input: Record<string, unknown>, viewer: AuthUser | null): Array<[string, string]> {
  if (!canOnInstance(viewer, 'admin_all_resources')) return [];
  const pairs: Array<[string, string]> = [];
  const nested = input.custom_attributes;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    for (const [key, value] of Object.entries(nested)) if (typeof value === 'string' || typeof value === 'number') pairs.push([key, String(value)]);
  }
  for (const [name, value] of Object.entries(input)) {
    const match = /^custom_attributes\[(.+)\]$/.exec(name);
    if (match && (typeof value === 'string' || typeof value === 'number')) pairs.push([match[1], String(value)]);
  }
  return pairs;
}

/** One subquery per pair: the ids of the owners that have that key with that value. */
export function ownersWith(db: Executor, column: OwnerColumn, pairs: Array<[string, string]>) {
  return pairs.map(([key, value]) => db.selectFrom('custom_attributes').select(column).where('key', '=', key).where('value', '=', value));
}

/** Whether the request asks for the attributes in the entities and may have them. */
export function showsCustomAttributes(input: Record<string, unknown>, viewer: AuthUser | null): boolean {
  const asked = input.with_custom_attributes;
  return canOnInstance(viewer, 'admin_all_resources') && (asked === true || (typeof asked === 'string' && /^(true|t|yes|y|on|1)$/i.test(asked)));
}

/** The attributes of each owner, by its id (GitLab's Entities::CustomAttribute: key and value). */
export async function customAttributesOf(db: Executor, column: OwnerColumn, ids: number[]): Promise<Map<number, Array<{ key: string; value: string }>>> {
  const byOwner = new Map<number, Array<{ key: string; value: string }>>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byOwner;
  const rows = await db.selectFrom('custom_attributes').select([column, 'key', 'value']).where(column, 'in', ids).orderBy('key').execute();
  for (const row of rows) byOwner.get(Number(row[column]))?.push({ key: row.key, value: row.value });
  return byOwner;
}
