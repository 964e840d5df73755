// Reads of snippets (GitLab's SnippetsFinder): one by id, a page of a project's, an author's, the
// public personal ones, or all of them; and the files of several snippets in one query.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { SnippetFilesTable, SnippetsTable } from '../platform/db/tables/snippets.js';
import { NotFoundError } from '../platform/errors.js';

export type SnippetRow = Selectable<SnippetsTable>;
export type SnippetFileRow = Selectable<SnippetFilesTable>;

export interface SnippetDates {
  createdAfter?: number;
  createdBefore?: number;
}

function newestFirst(deps: Deps, dates: SnippetDates = {}) {
  let query = deps.db.selectFrom('snippets').selectAll();
  if (dates.createdAfter !== undefined) query = query.where('created_at', '>', dates.createdAfter);
  if (dates.createdBefore !== undefined) query = query.where('created_at', '<', dates.createdBefore);
  return query.orderBy('id', 'desc');
}

/** A personal snippet (no project) by id, or 404 ("Snippet Not Found"). */
export async function findPersonalSnippet(db: Executor, id: number): Promise<SnippetRow> {
  const snippet = await db.selectFrom('snippets').selectAll().where('id', '=', id).where('project_id', 'is', null).executeTakeFirst();
  if (!snippet) throw new NotFoundError('Snippet');
  return snippet;
}

/** A snippet of either kind by id (the personal snippet routes also answer for project snippets' raw files). */
export async function findAnySnippet(db: Executor, id: number): Promise<SnippetRow> {
  const snippet = await db.selectFrom('snippets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!snippet) throw new NotFoundError('Snippet');
  return snippet;
}

export async function findProjectSnippet(db: Executor, projectId: number, id: number): Promise<SnippetRow> {
  const snippet = await db.selectFrom('snippets').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!snippet) throw new NotFoundError('Snippet');
  return snippet;
}

/** A project's snippets that `visibilities` allow (the caller's project access decides which). */
export function projectSnippetsQuery(deps: Deps, projectId: number, visibilities: SnippetRow['visibility'][], dates?: SnippetDates) {
  return newestFirst(deps, dates).where('project_id', '=', projectId).where('visibility', 'in', visibilities);
}

/** GET /snippets: the caller's own snippets, personal and of projects. */
export function authoredSnippetsQuery(deps: Deps, authorId: number, dates?: SnippetDates) {
  return newestFirst(deps, dates).where('author_id', '=', authorId);
}

/** GET /snippets/public: public personal snippets. */
export function publicSnippetsQuery(deps: Deps, dates?: SnippetDates) {
  return newestFirst(deps, dates).where('visibility', '=', 'public').where('project_id', 'is', null);
}

/**
 * GET /snippets/all: every snippet for an administrator (those on one shard with `repositoryStorage`);
 * for others the personal snippets they may read (public, internal, their own) and the project
 * snippets they wrote.
 */
export function allSnippetsQuery(deps: Deps, user: AuthUser, dates?: SnippetDates, repositoryStorage?: string) {
  const query = newestFirst(deps, dates);
  // GitLab's `repository_storage` filter, for administrators (who find the snippets a shard holds
  // before moving them): the snippets whose repository is on that shard.
  if (user.admin && repositoryStorage) {
    return query.where((eb) => eb.exists(eb.selectFrom('repositories as r').select('r.id')
      .where('r.container_type', '=', 'snippet').whereRef('r.container_id', '=', 'snippets.id').where('r.shard', '=', repositoryStorage)));
  }
  if (user.admin) return query;
  return query.where((eb) => eb.or([
    eb('author_id', '=', user.id),
    eb.and([eb('project_id', 'is', null), eb('visibility', 'in', ['public', 'internal'])]),
  ]));
}

export async function snippetFiles(db: Executor, snippetIds: number[]): Promise<Map<number, SnippetFileRow[]>> {
  const files = new Map<number, SnippetFileRow[]>();
  if (snippetIds.length === 0) return files;
  const rows = await db.selectFrom('snippet_files').selectAll().where('snippet_id', 'in', snippetIds).orderBy('snippet_id').orderBy('position').execute();
  for (const row of rows) files.set(Number(row.snippet_id), [...(files.get(Number(row.snippet_id)) ?? []), row]);
  return files;
}
