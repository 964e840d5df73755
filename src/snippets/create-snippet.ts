// Make a snippet (GitLab's Snippets::CreateService), personal or of a project, with its files in one
// transaction. The request's user agent and address are kept for administrators (user_agent_detail).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import type { SnippetRow } from './finder.js';
import type { SnippetFile } from './snippet-input.js';

export interface NewSnippet {
  projectId: number | null;
  title: string;
  description?: string;
  visibility: SnippetVisibility;
  files: SnippetFile[];
  userAgent?: string;
  ipAddress?: string;
}

export async function createSnippet(deps: Deps, author: AuthUser, input: NewSnippet): Promise<SnippetRow> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const snippet = await trx.insertInto('snippets').values({
      project_id: input.projectId, author_id: author.id, title: input.title, description: input.description ?? null, visibility: input.visibility,
      user_agent: input.userAgent?.slice(0, 1024) ?? null, ip_address: input.ipAddress ?? null, created_at: now, updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('snippet_files').values(input.files.map((file, position) => ({ snippet_id: snippet.id, position, path: file.path, content: file.content }))).execute();
    return snippet;
  });
}
