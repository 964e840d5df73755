// Wire shape of a snippet (GitLab's Entities::Snippet and ProjectSnippet: the same fields), listed in
// GitLab's order. ssh_url_to_repo and http_url_to_repo clone the snippet's repository (git-routes.ts;
// docs/snippets.md). A file's raw_url names the
// branch `main`, the snippet repository's only branch.
import { encodePathSegments } from '../platform/web/url-paths.js';
import type { Deps } from '../platform/deps.js';
import { isoTime } from '../platform/clock.js';
import { projectWebUrl, userBasic } from '../accounts/api.js';
import { snippetFiles, type SnippetFileRow, type SnippetRow } from './finder.js';

export const SNIPPET_REF = 'main';

export function snippetWebUrl(baseUrl: string, snippet: { id: number | string }, projectPath: string | null): string {
  return projectPath === null ? `${baseUrl}/-/snippets/${Number(snippet.id)}` : `${projectWebUrl(baseUrl, projectPath)}/-/snippets/${Number(snippet.id)}`;
}

/** The snippet's repository over HTTP: `<base>/snippets/<id>.git` or `<project>/snippets/<id>.git`. */
export function snippetRepoUrl(baseUrl: string, snippet: { id: number | string }, projectPath: string | null): string {
  return projectPath === null ? `${baseUrl}/snippets/${Number(snippet.id)}.git` : `${projectWebUrl(baseUrl, projectPath)}/snippets/${Number(snippet.id)}.git`;
}

export function fileRawUrl(webUrl: string, path: string): string {
  return `${webUrl}/raw/${SNIPPET_REF}/${encodePathSegments(path)}`;
}

/** The project paths of project snippets, by project id. */
async function projectPaths(deps: Deps, snippets: SnippetRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(snippets.map((snippet) => snippet.project_id).filter((id) => id !== null).map(Number))];
  if (ids.length === 0) return new Map();
  const rows = await deps.db.selectFrom('projects').innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.path', 'namespaces.full_path']).where('projects.id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), `${row.full_path}/${row.path}`]));
}

export async function presentSnippets(deps: Deps, snippets: SnippetRow[]) {
  const { baseUrl } = deps.config;
  const files = await snippetFiles(deps.db, snippets.map((snippet) => Number(snippet.id)));
  const authorIds = [...new Set(snippets.map((snippet) => Number(snippet.author_id)))];
  const authors = new Map((authorIds.length ? await deps.db.selectFrom('users').selectAll().where('id', 'in', authorIds).execute() : []).map((user) => [Number(user.id), user]));
  const paths = await projectPaths(deps, snippets);
  return snippets.map((snippet) => {
    const projectPath = snippet.project_id === null ? null : paths.get(Number(snippet.project_id)) ?? null;
    const web = snippetWebUrl(baseUrl, snippet, projectPath);
    const own: SnippetFileRow[] = files.get(Number(snippet.id)) ?? [];
    const author = authors.get(Number(snippet.author_id));
    return {
      id: Number(snippet.id),
      title: snippet.title,
      description: snippet.description,
      visibility: snippet.visibility,
      author: author ? userBasic(baseUrl, author) : null,
      created_at: isoTime(snippet.created_at),
      updated_at: isoTime(snippet.updated_at),
      project_id: snippet.project_id === null ? null : Number(snippet.project_id),
      web_url: web,
      raw_url: `${web}/raw`,
      ssh_url_to_repo: `${deps.config.sshUrlPrefix}${projectPath === null ? '' : `${projectPath}/`}snippets/${Number(snippet.id)}.git`,
      http_url_to_repo: snippetRepoUrl(baseUrl, snippet, projectPath),
      file_name: own[0]?.path ?? null,
      files: own.map((file) => ({ path: file.path, raw_url: fileRawUrl(web, file.path) })),
      imported: false,
      imported_from: 'none',
    };
  });
}

export async function presentSnippet(deps: Deps, snippet: SnippetRow) {
  return (await presentSnippets(deps, [snippet]))[0];
}
