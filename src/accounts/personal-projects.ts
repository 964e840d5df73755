// What a user's projects_limit counts (GitLab's personal_projects_count): the projects in their
// personal namespace. Read for the limit checks (create-project.ts, transfer-project.ts) and for the
// `can_create_project` of the user entity, for a page of users in one statement.
import type { Executor } from '../platform/db/database.js';

export async function personalProjectCounts(db: Executor, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select((eb) => ['n.owner_id', eb.fn.countAll<number>().as('count')])
    .where('n.kind', '=', 'user')
    .where('n.owner_id', 'in', userIds)
    .groupBy('n.owner_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.owner_id), Number(row.count)]));
}

/** GitLab's User#can_create_project?: personal projects left under the user's projects_limit. */
export const mayCreatePersonalProject = (projectsLimit: number, personalProjects: number) => personalProjects < projectsLimit;
