// Make a snippet (GitLab's Snippets::CreateService), personal or of a project, with its files in one
// transaction, then their first commit in the snippet's repository. The request's user agent and address are kept for administrators (user_agent_detail).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import type { SnippetRow } from './finder.js';
import type { SnippetFile } from './snippet-input.js';
import { syncSnippetRepository } from './snippet-repository.js';
import { requestDetailColumns } from '../platform/http/user-agent-detail.js';

export interface NewSnippet {
  projectId: number | null;
  title: string;
  description?: string;
  visibility: SnippetVisibility;
  files: SnippetFile[];
  /** The creating request, kept for administrators (user_agent_detail). */
  userAgent?: string;
  ipAddress?: string;
}

export async function createSnippet(deps: Deps, author: AuthUser, input: NewSnippet): Promise<SnippetRow> {
  const now = deps.clock.now();
  const created = await inTransaction(deps.db, async (trx) => {
    const snippet = await trx.insertInto('snippets').values({
      project_id: input.projectId, author_id: author.id, title: input.title, description: input.description ?? null, visibility: input.visibility,
      ...requestDetailColumns(input), created_at: now, updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('snippet_files').values(input.files.map((file, position) => ({ snippet_id: snippet.id, position, path: file.path, content: file.content, encoding: file.encoding ?? 'text' }))).execute();
    return snippet;
  });
  await commitToRepository(deps, created, 'Create snippet', author.id);
  return created;
}

/**
 * The snippet's files as a commit of its repository, after the database has them. A failure is
 * logged, not answered: the files are kept, and the next write or clone commits them.
 */
export async function commitToRepository(deps: Deps, snippet: SnippetRow, message: string, byUserId: number): Promise<void> {
  try {
    await syncSnippetRepository(deps, Number(snippet.id), message, byUserId);
  } catch (error) {
    deps.log.error({ err: error, snippetId: Number(snippet.id) }, 'committing a snippet to its repository failed');
  }
}
