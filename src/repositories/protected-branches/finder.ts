// Protected branch rules of a project, always looked up through the project, with their access levels.
import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { lowerLike } from '../../platform/db/like.js';
import type { ProtectedBranchAccessLevelsTable, ProtectedBranchesTable } from '../../platform/db/tables/repositories.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { matchesBranch } from './ref-matcher.js';

export type ProtectedBranchRow = Selectable<ProtectedBranchesTable>;
export type AccessLevelRow = Selectable<ProtectedBranchAccessLevelsTable>;

export interface ProtectedBranchRule {
  branch: ProtectedBranchRow;
  push: AccessLevelRow[];
  merge: AccessLevelRow[];
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A project's rules by id, optionally those whose name contains `search` in any case (ProtectedBranchesFinder). */
export function protectedBranchesQuery(db: Executor, projectId: number, search?: string) {
  let query = db.selectFrom('protected_branches').selectAll().where('project_id', '=', projectId);
  if (search) query = query.where(lowerLike('name', `%${escapeLike(search.toLowerCase())}%`));
  return query.orderBy('id', 'asc');
}

/** The rules with their push and merge access levels, in the order given. */
export async function withAccessLevels(db: Executor, rows: ProtectedBranchRow[]): Promise<ProtectedBranchRule[]> {
  if (rows.length === 0) return [];
  const levels = await db
    .selectFrom('protected_branch_access_levels')
    .selectAll()
    .where('protected_branch_id', 'in', rows.map((row) => row.id))
    .orderBy('id', 'asc')
    .execute();
  return rows.map((branch) => {
    const own = levels.filter((level) => Number(level.protected_branch_id) === Number(branch.id));
    return { branch, push: own.filter((level) => level.action === 'push'), merge: own.filter((level) => level.action === 'merge') };
  });
}

/** The rule named exactly `name` (a branch or a wildcard); "404 Not found" otherwise, as GitLab's find_by!. */
export async function findProtectedBranch(db: Executor, projectId: number, name: string): Promise<ProtectedBranchRule> {
  const row = await db.selectFrom('protected_branches').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return (await withAccessLevels(db, [row]))[0];
}

/** Every rule of a project: a push checks each updated branch against all of them. */
export async function projectRules(db: Executor, projectId: number): Promise<ProtectedBranchRule[]> {
  return withAccessLevels(db, await protectedBranchesQuery(db, projectId).execute());
}

export function rulesMatching(rules: readonly ProtectedBranchRule[], branch: string): ProtectedBranchRule[] {
  return rules.filter((rule) => matchesBranch(rule.branch.name, branch));
}
