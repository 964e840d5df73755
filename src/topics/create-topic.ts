// Makes a topic (administrators; GitLab's POST /topics), with its avatar when one is sent.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { storeAvatar } from '../accounts/api.js';
import { validateTopic, type TopicFields } from './validate-topic.js';
import { findTopic } from './finder.js';
import type { TopicRow } from './entities.js';

export async function createTopic(deps: Deps, input: TopicFields & { avatar: UploadedFile | null }): Promise<TopicRow> {
  await validateTopic(deps.db, input);
  const now = deps.clock.now();
  try {
    const id = await inTransaction(deps.db, async (trx) => {
      const row = await trx.insertInto('topics').values({ name: input.name, name_lower: input.name.toLowerCase(), title: input.title, description: input.description, created_at: now, updated_at: now })
        .returning('id').executeTakeFirstOrThrow();
      if (input.avatar) {
        const avatar = await storeAvatar(trx, 'Topic', Number(row.id), input.avatar, now);
        await trx.updateTable('topics').set({ avatar }).where('id', '=', row.id).execute();
      }
      return Number(row.id);
    });
    return await findTopic(deps.db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ name: ['has already been taken'] });
    throw error;
  }
}
