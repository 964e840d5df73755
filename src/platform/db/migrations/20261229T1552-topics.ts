import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Project topics (issue 38; GitLab's topics and project_topics): a topic is named once per instance,
// whatever the case, and projects are linked to it in the order they list their topics. A project's
// `topics` column keeps the names it shows; these rows are what /topics lists and counts.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('topics'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('avatar', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createTable('project_topics')
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('topic_id', 'bigint', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_topics_pk', ['project_id', 'topic_id'])
    .execute();
  await db.schema.createIndex('project_topics_topic').on('project_topics').columns(['topic_id', 'project_id']).execute();

  // Projects that listed topics before: their topics made (titled by their first spelling) and linked.
  const now = Date.now();
  const topicIds = new Map<string, number>();
  const projects = await db.selectFrom('projects').select(['id', 'topics']).where('topics', '!=', '[]').orderBy('id').execute();
  for (const project of projects) {
    let names: unknown;
    try {
      names = JSON.parse(String(project.topics));
    } catch {
      continue;
    }
    if (!Array.isArray(names)) continue;
    const linked = new Set<number>();
    for (const raw of names) {
      const name = String(raw).trim();
      if (name === '') continue;
      const key = name.toLowerCase();
      let topicId = topicIds.get(key);
      if (topicId === undefined) {
        const row = await db.insertInto('topics').values({ name, name_lower: key, title: name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
        topicId = Number(row.id);
        topicIds.set(key, topicId);
      }
      if (linked.has(topicId)) continue;
      await db.insertInto('project_topics').values({ project_id: project.id, topic_id: topicId, position: linked.size }).execute();
      linked.add(topicId);
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
