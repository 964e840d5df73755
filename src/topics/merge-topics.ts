// Merges one topic into another (administrators; GitLab's Topics::MergeService): the source's projects
// list the target instead, in the source's place, and the source is deleted.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { StatusError } from '../platform/errors.js';
import { removeAvatar } from '../accounts/api.js';
import type { TopicRow } from './entities.js';
import { refreshProjectTopicNames } from './topics-queries.js';

export async function mergeTopics(deps: Deps, source: TopicRow, target: TopicRow): Promise<void> {
  if (Number(source.id) === Number(target.id)) throw new StatusError(400, 'The source topic and the target topic are identical.');
  await inTransaction(deps.db, async (trx) => {
    const links = await trx.selectFrom('project_topics').selectAll().where('topic_id', '=', source.id).execute();
    const already = new Set((await trx.selectFrom('project_topics').select('project_id').where('topic_id', '=', target.id).execute()).map((row) => Number(row.project_id)));
    await trx.deleteFrom('project_topics').where('topic_id', '=', source.id).execute();
    for (const link of links) {
      if (already.has(Number(link.project_id))) continue;
      await trx.insertInto('project_topics').values({ project_id: link.project_id, topic_id: target.id, position: link.position }).execute();
    }
    await trx.deleteFrom('topics').where('id', '=', source.id).execute();
    await removeAvatar(trx, 'Topic', Number(source.id));
    await refreshProjectTopicNames(trx, links.map((link) => Number(link.project_id)));
  });
}
