// Milestone listings order by due date with undated ones last, then newest first (GitLab's
// MilestonesFinder default `due_date_asc`), and search titles and descriptions literally.
import { sql } from 'kysely';

export const dueDateNullsLast = sql<number>`case when due_date is null then 1 else 0 end`;

export function titleOrDescriptionContains(text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<boolean>`(lower(title) like ${pattern} escape '\\' or lower(coalesce(description, '')) like ${pattern} escape '\\')`;
}
