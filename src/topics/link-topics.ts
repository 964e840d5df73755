// A project's topics linked in its writing transaction (accountHooks' linkTopics, GitLab's
// Project#save_topics): each listed name is the topic of that name whatever its case, made (titled
// by the name) when there is none; the links are replaced in the listed order.
import type { Executor } from '../platform/db/database.js';

export async function linkTopics(db: Executor, projectId: number, names: string[], now: number): Promise<string[]> {
  await db.deleteFrom('project_topics').where('project_id', '=', projectId).execute();
  const spelled: string[] = [];
  const linked = new Set<number>();
  for (const name of names) {
    const key = name.toLowerCase();
    // Two projects naming a new topic at once: the second insert does nothing and reads the first's.
    await db.insertInto('topics').values({ name, name_lower: key, title: name, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.column('name_lower').doNothing()).execute();
    const topic = await db.selectFrom('topics').select(['id', 'name']).where('name_lower', '=', key).executeTakeFirstOrThrow();
    if (linked.has(Number(topic.id))) continue;
    await db.insertInto('project_topics').values({ project_id: projectId, topic_id: topic.id, position: linked.size }).execute();
    linked.add(Number(topic.id));
    spelled.push(topic.name);
  }
  return spelled;
}
