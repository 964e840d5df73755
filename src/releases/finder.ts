// Reads of releases (GitLab's ReleasesFinder): a project's or a group's projects' releases in
// `released_at` or `created_at` order, one by tag, and what a release shows (links, milestones, evidence).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { Selectable } from 'kysely';
import type { ReleaseEvidencesTable, ReleaseLinksTable, ReleasesTable } from '../platform/db/tables/releases.js';
import { NotFoundError } from '../platform/errors.js';
import type { MilestoneRow } from '../milestones/api.js';

export type ReleaseRow = Selectable<ReleasesTable>;
export type ReleaseLinkRow = Selectable<ReleaseLinksTable>;
export type ReleaseEvidenceRow = Selectable<ReleaseEvidencesTable>;

export interface ReleaseOrder {
  orderBy: 'released_at' | 'created_at';
  sort: 'asc' | 'desc';
}

export function releasesQuery(deps: Deps, projectIds: number[], order: ReleaseOrder) {
  return deps.db.selectFrom('releases').selectAll()
    .where('project_id', 'in', projectIds.length ? projectIds : [-1])
    .orderBy(order.orderBy, order.sort)
    .orderBy('id', order.sort);
}

export async function findRelease(db: Executor, projectId: number, tagName: string): Promise<ReleaseRow> {
  const release = await db.selectFrom('releases').selectAll().where('project_id', '=', projectId).where('tag_name', '=', tagName).executeTakeFirst();
  if (!release) throw new NotFoundError();
  return release;
}

/** The latest release (GitLab's permalink/latest: the most recent `released_at`). */
export async function latestRelease(db: Executor, projectId: number): Promise<ReleaseRow | undefined> {
  return db.selectFrom('releases').selectAll().where('project_id', '=', projectId).orderBy('released_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** What the Release entity shows besides the row, for several releases in three queries. */
export interface ReleaseParts {
  links: Map<number, ReleaseLinkRow[]>;
  milestones: Map<number, Array<MilestoneRow & { issues_total: number; issues_closed: number; group_full_path: string | null }>>;
  evidences: Map<number, ReleaseEvidenceRow[]>;
}

function grouped<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
}

export async function releaseParts(db: Executor, releases: ReleaseRow[]): Promise<ReleaseParts> {
  const ids = releases.map((release) => Number(release.id));
  if (ids.length === 0) return { links: new Map(), milestones: new Map(), evidences: new Map() };
  const links = await db.selectFrom('release_links').selectAll().where('release_id', 'in', ids).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const milestones = await db.selectFrom('release_milestones')
    .innerJoin('milestones', 'milestones.id', 'release_milestones.milestone_id')
    .leftJoin('namespaces', 'namespaces.id', 'milestones.group_id')
    .selectAll('milestones')
    .select(['release_milestones.release_id', 'namespaces.full_path as group_full_path'])
    .select((eb) => [
      eb.selectFrom('issues').select(eb.fn.countAll<number>().as('n')).whereRef('issues.milestone_id', '=', 'milestones.id').as('issues_total'),
      eb.selectFrom('issues').select(eb.fn.countAll<number>().as('n')).whereRef('issues.milestone_id', '=', 'milestones.id').where('issues.state', '=', 'closed').as('issues_closed'),
    ])
    .where('release_milestones.release_id', 'in', ids)
    .orderBy('milestones.due_date').orderBy('milestones.title')
    .execute();
  const evidences = await db.selectFrom('release_evidences').selectAll().where('release_id', 'in', ids).orderBy('id', 'desc').execute();
  return {
    links: grouped(links, (row) => Number(row.release_id)),
    milestones: grouped(milestones.map((row) => ({ ...row, issues_total: Number(row.issues_total ?? 0), issues_closed: Number(row.issues_closed ?? 0) })), (row) => Number(row.release_id)),
    evidences: grouped(evidences, (row) => Number(row.release_id)),
  };
}
