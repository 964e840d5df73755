// Whether a pipeline's ref is protected (GitLab's Project#protected_for?): a branch matched by a
// protected branch rule, a tag by a protected tag rule. Its jobs then get protected variables.
import type { Executor } from '../../platform/db/database.js';
import { matchesBranch } from '../../repositories/api.js';

export async function isProtectedRef(db: Executor, projectId: number, ref: string, tag: boolean): Promise<boolean> {
  const rules = tag
    ? await db.selectFrom('protected_tags').select('name').where('project_id', '=', projectId).execute()
    : await db.selectFrom('protected_branches').select('name').where('project_id', '=', projectId).execute();
  return rules.some((rule) => matchesBranch(rule.name, ref));
}
