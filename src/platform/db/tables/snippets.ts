// Snippets (migration 20261229T0805-snippets).
import type { Generated } from 'kysely';

export type SnippetVisibility = 'private' | 'internal' | 'public';

/** How a snippet file's `content` holds it: text, or a binary file's bytes in base64. */
export type SnippetFileEncoding = 'text' | 'base64';

export interface SnippetsTable {
  id: Generated<number>;
  /** Null for a personal snippet. */
  project_id: number | null;
  author_id: number;
  title: string;
  description: string | null;
  visibility: SnippetVisibility;
  /** The creating request's User-Agent and address (GitLab's user_agent_details, shown to administrators). */
  user_agent: string | null;
  ip_address: string | null;
  /** Set while a storage move copies the snippet's repository: pushes are refused (GitLab's repository_read_only). */
  repository_read_only: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SnippetFilesTable {
  id: Generated<number>;
  snippet_id: number;
  /** The file's order in the snippet (GitLab lists a snippet repository's files by path; Kiln keeps the order sent). */
  position: number;
  path: string;
  /** The text, or the bytes base64-encoded when `encoding` is `base64` (migration 20261231T0931). */
  content: string;
  encoding: Generated<SnippetFileEncoding>;
}

export interface SnippetsTables {
  snippets: SnippetsTable;
  snippet_files: SnippetFilesTable;
}
