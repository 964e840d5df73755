// Project topics (doc/api/topics.md; lib/api/topics.rb): listed and read by anyone (no token needed),
// made, changed, deleted and merged by administrators. Projects name them in their `topics`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { avatarChange } from '../accounts/api.js';
import { topicEntity } from './entities.js';
import { findTopic } from './finder.js';
import { topicsQuery } from './topics-queries.js';
import { createTopic } from './create-topic.js';
import { updateTopic } from './update-topic.js';
import { deleteTopic } from './delete-topic.js';
import { mergeTopics } from './merge-topics.js';

const TAGS = ['topics'];
const AVATAR = p.json.optional({ description: 'An image file (multipart/form-data); empty to remove the avatar' });
const ADMIN = { instance: 'admin_all_resources' } as const;

export function topicRoutes(app: FastifyInstance, deps: Deps): void {
  const present = (topic: Parameters<typeof topicEntity>[1]) => topicEntity(deps.config.baseUrl, topic);

  apiRoute(app, deps, {
    method: 'GET', url: '/topics', summary: 'Topics, those listed by the most public and internal projects first', tags: TAGS, paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { search: p.string.optional({ description: 'Topics whose name contains this' }), without_projects: p.boolean.optional({ description: 'Only topics no project lists' }) },
    handler: async ({ params, paginate }) => (await paginate(topicsQuery(deps.db, { search: params.search || undefined, withoutProjects: params.without_projects }))).map(present),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/topics/:id', summary: 'One topic', tags: TAGS,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { id: p.integer.required() },
    handler: async ({ params }) => present(await findTopic(deps.db, params.id)),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/topics', summary: 'Make a topic (administrators)', tags: TAGS,
    ability: ADMIN,
    // `title` is GitLab 15's (required there); the GitLab 14.3 that Kiln reports had none, and
    // python-gitlab sends none to it: absent, the topic is titled by its name, as the topics a
    // project's listing makes are (link-topics.ts).
    params: { name: p.string.required(), title: p.string.optional(), description: p.string.optional(), avatar: AVATAR },
    handler: async ({ params }) => present(await createTopic(deps, {
      name: params.name, title: params.title ?? params.name, description: params.description ?? null, avatar: params.avatar === undefined ? null : avatarChange(params.avatar),
    })),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/topics/merge', summary: 'Merge a topic into another: its projects list the target, and it is deleted (administrators)', tags: TAGS,
    ability: ADMIN,
    params: { source_topic_id: p.integer.required(), target_topic_id: p.integer.required() },
    handler: async ({ params }) => {
      const source = await findTopic(deps.db, params.source_topic_id);
      const target = await findTopic(deps.db, params.target_topic_id);
      await mergeTopics(deps, source, target);
      return present(await findTopic(deps.db, Number(target.id)));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/topics/:id', summary: 'Change a topic (administrators); projects show a new name', tags: TAGS,
    ability: ADMIN,
    params: { id: p.integer.required(), name: p.string.optional(), title: p.string.optional(), description: p.string.optional(), avatar: AVATAR },
    handler: async ({ params }) => present(await updateTopic(deps, await findTopic(deps.db, params.id), {
      name: params.name, title: params.title, description: params.description, avatar: params.avatar === undefined ? undefined : avatarChange(params.avatar),
    })),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/topics/:id', summary: 'Delete a topic (administrators); its projects no longer list it', tags: TAGS,
    ability: ADMIN,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      await deleteTopic(deps, await findTopic(deps.db, params.id));
      return undefined;
    },
  });
}
