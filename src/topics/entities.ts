// The wire shape of a topic (GitLab's Entities::Projects::Topic).
import type { Selectable } from 'kysely';
import type { TopicsTable } from '../platform/db/tables/topics.js';

export type TopicRow = Selectable<TopicsTable> & { total_projects_count: number | string; non_private_projects_count: number | string };

export function topicAvatarUrl(baseUrl: string, id: number, filename: string | null): string | null {
  return filename === null ? null : `${baseUrl}/uploads/-/system/projects/topic/avatar/${id}/${encodeURIComponent(filename)}`;
}

export function topicEntity(baseUrl: string, topic: TopicRow) {
  return {
    id: Number(topic.id),
    name: topic.name,
    title: topic.title,
    description: topic.description,
    total_projects_count: Number(topic.total_projects_count),
    avatar_url: topicAvatarUrl(baseUrl, Number(topic.id), topic.avatar),
  };
}
