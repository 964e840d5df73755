// Protected tag rules of a project, always looked up through the project, with their create levels.
import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { ProtectedTagCreateAccessLevelsTable, ProtectedTagsTable } from '../../platform/db/tables/repositories.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { matchesBranch } from './ref-matcher.js';

export type ProtectedTagRow = Selectable<ProtectedTagsTable>;
export type CreateAccessLevelRow = Selectable<ProtectedTagCreateAccessLevelsTable>;

export interface ProtectedTagRule {
  tag: ProtectedTagRow;
  create: CreateAccessLevelRow[];
}

export function protectedTagsQuery(db: Executor, projectId: number) {
  return db.selectFrom('protected_tags').selectAll().where('project_id', '=', projectId).orderBy('id', 'asc');
}

/** The rules with their create access levels, in the order given. */
export async function withCreateLevels(db: Executor, rows: ProtectedTagRow[]): Promise<ProtectedTagRule[]> {
  if (rows.length === 0) return [];
  const levels = await db
    .selectFrom('protected_tag_create_access_levels')
    .selectAll()
    .where('protected_tag_id', 'in', rows.map((row) => row.id))
    .orderBy('id', 'asc')
    .execute();
  return rows.map((tag) => ({ tag, create: levels.filter((level) => Number(level.protected_tag_id) === Number(tag.id)) }));
}

/** The rule named exactly `name` (a tag or a wildcard); "404 Not found" otherwise, as GitLab's find_by!. */
export async function findProtectedTag(db: Executor, projectId: number, name: string): Promise<ProtectedTagRule> {
  const row = await db.selectFrom('protected_tags').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return (await withCreateLevels(db, [row]))[0];
}

/** Every rule of a project: a push checks each updated tag against all of them. */
export async function projectTagRules(db: Executor, projectId: number): Promise<ProtectedTagRule[]> {
  return withCreateLevels(db, await protectedTagsQuery(db, projectId).execute());
}

/** Tags are matched as branches are (GitLab's RefMatcher serves both): exact name or `*` wildcard. */
export function tagRulesMatching(rules: readonly ProtectedTagRule[], tag: string): ProtectedTagRule[] {
  return rules.filter((rule) => matchesBranch(rule.tag.name, tag));
}
