// Topics with their project counts (GitLab keeps total_projects_count and non_private_projects_count
// as columns; here they are counted from the links when read), ordered as GitLab's TopicsFinder:
// most public and internal projects first, then oldest; a search puts the closest names first.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';

export interface TopicFilters {
  search?: string;
  /** `without_projects`: only topics no project lists. */
  withoutProjects?: boolean;
}

export function topicsQuery(db: Executor, filters: TopicFilters = {}) {
  let query = db.selectFrom('topics').selectAll('topics').select([
    sql<number>`(select count(*) from project_topics pt where pt.topic_id = topics.id)`.as('total_projects_count'),
    sql<number>`(select count(*) from project_topics pt join projects p on p.id = pt.project_id where pt.topic_id = topics.id and p.visibility <> 'private')`.as('non_private_projects_count'),
  ]);
  if (filters.withoutProjects) query = query.where(sql<boolean>`not exists (select 1 from project_topics pt where pt.topic_id = topics.id)`);
  if (filters.search) {
    const lower = filters.search.toLowerCase();
    query = query.where(lowerLike('topics.name', containsPattern(filters.search)))
      .orderBy(sql`case when topics.name_lower = ${lower} then 0 when topics.name_lower like ${`${containsPattern(filters.search).slice(1)}`} escape '\\' then 1 else 2 end`);
  }
  return query.orderBy(sql`(select count(*) from project_topics pt join projects p on p.id = pt.project_id where pt.topic_id = topics.id and p.visibility <> 'private')`, 'desc').orderBy('topics.id');
}

/** Rewrites the `topics` names of the given projects from their links, in their order. */
export async function refreshProjectTopicNames(db: Executor, projectIds: number[]): Promise<void> {
  for (const projectId of projectIds) {
    const rows = await db.selectFrom('project_topics').innerJoin('topics', 'topics.id', 'project_topics.topic_id')
      .select('topics.name').where('project_topics.project_id', '=', projectId).orderBy('project_topics.position').orderBy('topics.id').execute();
    await db.updateTable('projects').set({ topics: JSON.stringify(rows.map((row) => row.name)) }).where('id', '=', projectId).execute();
  }
}
