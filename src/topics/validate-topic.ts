// A topic's fields as GitLab's Projects::Topic validates them, in its words.
import type { Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';

export interface TopicFields { name: string; title: string; description: string | null }

export async function validateTopic(db: Executor, topic: TopicFields, exceptId?: number): Promise<void> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (topic.name.trim() === '') add('name', "can't be blank");
  else if ([...topic.name].length > 255) add('name', 'is too long (maximum is 255 characters)');
  else if (/[\n\v\f\r\u0085\u2028\u2029]/.test(topic.name)) add('name', 'has characters that are not allowed');
  else {
    let clash = db.selectFrom('topics').select('id').where('name_lower', '=', topic.name.toLowerCase());
    if (exceptId !== undefined) clash = clash.where('id', '!=', exceptId);
    if (await clash.executeTakeFirst()) add('name', 'has already been taken');
  }
  if (topic.title.trim() === '') add('title', "can't be blank");
  else if ([...topic.title].length > 255) add('title', 'is too long (maximum is 255 characters)');
  if (topic.description !== null && [...topic.description].length > 1024) add('description', 'is too long (maximum is 1024 characters)');
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
