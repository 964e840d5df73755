// One topic by id with its counts, or GitLab's 404 Not found.
import type { Executor } from '../platform/db/database.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { TopicRow } from './entities.js';
import { topicsQuery } from './topics-queries.js';

export async function findTopic(db: Executor, id: number): Promise<TopicRow> {
  const topic = await topicsQuery(db).where('topics.id', '=', id).executeTakeFirst();
  if (!topic) throw new RecordNotFoundError();
  return topic;
}
