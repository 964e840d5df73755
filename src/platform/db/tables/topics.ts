// Project topics (migration 20261229T1552-topics).
import type { Generated } from 'kysely';

export interface TopicsTable {
  id: Generated<number>;
  /** GitLab's name (the slug a project lists); unique whatever the case (name_lower). */
  name: string;
  name_lower: string;
  title: string;
  description: string | null;
  /** The avatar's file name (the image is a row of `avatars`, model `Topic`), or null. */
  avatar: string | null;
  created_at: number;
  updated_at: number;
}

export interface ProjectTopicsTable {
  project_id: number;
  topic_id: number;
  /** The topic's place in the project's list, from 0. */
  position: number;
}

export interface TopicsTables {
  topics: TopicsTable;
  project_topics: ProjectTopicsTable;
}
