import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { LabelRow } from './entities.js';
import { groupAndAncestorIds } from './labels-queries.js';
import { DEFAULT_LABEL_COLOR } from './colors.js';

/**
 * The project's labels with these titles (its own first, then its ancestor groups'), in the order
 * asked. A title it does not have yet becomes a new project label in GitLab's default colour when
 * `create` is set (GitLab's Labels::FindOrCreateService: callers who may manage labels); otherwise it
 * is left out, as GitLab leaves it. Runs in the caller's transaction.
 */
export async function findOrCreateLabels(trx: Executor, project: ProjectRow, titles: string[], options: { create: boolean; now: number }): Promise<LabelRow[]> {
  const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
  if (wanted.length === 0) return [];
  const groups = await groupAndAncestorIds(trx, Number(project.namespace_id));
  const rows = await trx
    .selectFrom('labels')
    .selectAll()
    .where('title', 'in', wanted)
    .where((eb) => eb.or([eb('project_id', '=', Number(project.id)), ...(groups.length ? [eb('group_id', 'in', groups)] : [])]))
    .execute();
  const found: LabelRow[] = [];
  for (const title of wanted) {
    const existing = rows.find((row) => row.title === title && row.project_id !== null) ?? rows.find((row) => row.title === title);
    if (existing) {
      found.push(existing);
      continue;
    }
    if (!options.create || title.includes(',') || [...title].length > 255) continue;
    // A racing request may create the same title: the unique index keeps one and both use it.
    await trx
      .insertInto('labels')
      .values({ project_id: Number(project.id), group_id: null, title, color: DEFAULT_LABEL_COLOR, description: null, priority: null, created_at: options.now, updated_at: options.now })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    found.push(await trx.selectFrom('labels').selectAll().where('project_id', '=', Number(project.id)).where('title', '=', title).executeTakeFirstOrThrow());
  }
  return found;
}

/** The labels of each issue, ordered by title as GitLab lists them. */
export async function labelsOfIssues(db: Executor, issueIds: number[]): Promise<Map<number, LabelRow[]>> {
  const byIssue = new Map<number, LabelRow[]>();
  if (issueIds.length === 0) return byIssue;
  const rows = await db
    .selectFrom('label_links as ll')
    .innerJoin('labels as l', 'l.id', 'll.label_id')
    .selectAll('l')
    .select('ll.issue_id')
    .where('ll.issue_id', 'in', issueIds)
    .orderBy('l.title')
    .orderBy('l.id')
    .execute();
  for (const { issue_id: issueId, ...label } of rows) {
    const list = byIssue.get(Number(issueId)) ?? [];
    list.push(label as LabelRow);
    byIssue.set(Number(issueId), list);
  }
  return byIssue;
}
