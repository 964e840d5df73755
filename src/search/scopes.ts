// The scopes each search accepts (GitLab's SearchHelpers global/group/project_search_scopes). Kiln has
// no snippets or wikis: those scopes are accepted and find nothing, as on a GitLab with none. Blobs are searched with git grep in projects and groups (GitLab needs Elasticsearch for
// groups); notes (comments on readable issues) and commits (git log --grep) in projects.
export const GLOBAL_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'] as const;
export const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users', 'blobs'] as const;
export const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs', 'users'] as const;

export type Scope = (typeof GLOBAL_SCOPES)[number] | (typeof GROUP_SCOPES)[number] | (typeof PROJECT_SCOPES)[number];

/** Scopes whose objects Kiln does not have: always an empty page. */
export const EMPTY_SCOPES: ReadonlySet<Scope> = new Set(['snippet_titles', 'wiki_blobs']);

export const SEARCH_STATES = ['all', 'opened', 'closed', 'merged'] as const;
