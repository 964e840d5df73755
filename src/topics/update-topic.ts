// Changes a topic (administrators; GitLab's PUT /topics/:id): a new name is shown by every project
// that lists the topic; an empty `avatar` removes the avatar.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { removeAvatar, storeAvatar } from '../accounts/api.js';
import { validateTopic } from './validate-topic.js';
import { findTopic } from './finder.js';
import type { TopicRow } from './entities.js';
import { refreshProjectTopicNames } from './topics-queries.js';

export interface TopicChanges { name?: string; title?: string; description?: string; avatar?: UploadedFile | null }

export async function updateTopic(deps: Deps, topic: TopicRow, changes: TopicChanges): Promise<TopicRow> {
  const next = { name: changes.name ?? topic.name, title: changes.title ?? topic.title, description: changes.description ?? topic.description };
  await validateTopic(deps.db, next, Number(topic.id));
  const now = deps.clock.now();
  try {
    await inTransaction(deps.db, async (trx) => {
      let avatar = topic.avatar;
      if (changes.avatar === null) {
        await removeAvatar(trx, 'Topic', Number(topic.id));
        avatar = null;
      } else if (changes.avatar) {
        avatar = await storeAvatar(trx, 'Topic', Number(topic.id), changes.avatar, now);
      }
      await trx.updateTable('topics').set({ ...next, name_lower: next.name.toLowerCase(), avatar, updated_at: now }).where('id', '=', topic.id).execute();
      if (next.name !== topic.name) {
        const projects = await trx.selectFrom('project_topics').select('project_id').where('topic_id', '=', topic.id).execute();
        await refreshProjectTopicNames(trx, projects.map((row) => Number(row.project_id)));
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ name: ['has already been taken'] });
    throw error;
  }
  return findTopic(deps.db, Number(topic.id));
}
