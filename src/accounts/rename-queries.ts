// SQL for moving a namespace's subtree to a new full path (a group renamed or transferred): every
// descendant namespace and project keeps its path below the moved one. Ranges on full_path_lower
// ('a/' ≤ x < 'a0', '0' following '/') are served by its unique index; substr and || are in both dialects.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';

export interface DescendantPath {
  source_type: 'Project' | 'Namespace';
  source_id: number;
  full_path: string;
}

function below(prefixLower: string) {
  return { from: `${prefixLower}/`, to: `${prefixLower}0` };
}

/** Namespaces and projects strictly below `prefix`, with their current full paths. */
export async function descendantPaths(executor: Executor, prefix: string): Promise<DescendantPath[]> {
  const { from, to } = below(prefix.toLowerCase());
  const { rows } = await sql<DescendantPath>`
    select 'Namespace' as source_type, id as source_id, full_path from namespaces where full_path_lower >= ${from} and full_path_lower < ${to}
    union all
    select 'Project' as source_type, id as source_id, full_path from projects where full_path_lower >= ${from} and full_path_lower < ${to}`.execute(executor);
  return rows.map((row) => ({ ...row, source_id: Number(row.source_id) }));
}

/** Rewrite the paths below `oldPrefix` to start with `newPrefix` instead. */
export async function moveDescendantPaths(executor: Executor, oldPrefix: string, newPrefix: string): Promise<void> {
  const { from, to } = below(oldPrefix.toLowerCase());
  const keep = oldPrefix.length + 1;
  for (const table of ['namespaces', 'projects'] as const) {
    await sql`
      update ${sql.table(table)} set full_path = ${newPrefix} || substr(full_path, ${keep}),
        full_path_lower = ${newPrefix.toLowerCase()} || substr(full_path_lower, ${keep})
      where full_path_lower >= ${from} and full_path_lower < ${to}`.execute(executor);
  }
}
