// Deletes a topic (administrators): the projects that listed it no longer do.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { removeAvatar } from '../accounts/api.js';
import type { TopicRow } from './entities.js';
import { refreshProjectTopicNames } from './topics-queries.js';

export async function deleteTopic(deps: Deps, topic: TopicRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const projects = await trx.selectFrom('project_topics').select('project_id').where('topic_id', '=', topic.id).execute();
    await trx.deleteFrom('project_topics').where('topic_id', '=', topic.id).execute();
    await trx.deleteFrom('topics').where('id', '=', topic.id).execute();
    await removeAvatar(trx, 'Topic', Number(topic.id));
    await refreshProjectTopicNames(trx, projects.map((row) => Number(row.project_id)));
  });
}
