// Milestone listings order by due date with undated ones last, then newest first (GitLab's
// MilestonesFinder default `due_date_asc`), and search titles and descriptions literally.
import { sql } from 'kysely';
import { containsPattern, lowerLike } from '../platform/db/like.js';

export const dueDateNullsLast = sql<number>`case when due_date is null then 1 else 0 end`;

export function titleOrDescriptionContains(text: string) {
  const pattern = containsPattern(text);
  return sql<boolean>`(${lowerLike('title', pattern)} or ${lowerLike('description', pattern)})`;
}
