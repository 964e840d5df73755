// The full paths of the projects a milestone's issues live in, for linking each issue.
import type { Executor } from '../platform/db/database.js';

export async function projectPathsById(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [Number(row.id), row.full_path]));
}
