// What a notification about a project snippet's comment needs, read when its job runs: the snippet, its
// project and the project's groups, and the people its thread involves (GitLab's Snippet#participants:
// the author and the comments' authors and mentioned users; its description is mentionable too). Only
// those who read the snippet (its project's snippets feature and the snippet's own visibility) qualify.
import type { Deps } from '../platform/deps.js';
import { canReadSnippet, type SnippetRow } from '../snippets/api.js';
import { discussionPeople, groupChain, type ThreadContext } from './issue-context.js';

export interface SnippetContext extends ThreadContext {
  snippet: SnippetRow;
}

/** A project snippet's context; null when it is gone or personal (notify-personal-snippet-note.ts mails those). */
export async function loadSnippetContext(deps: Deps, snippetId: number): Promise<SnippetContext | null> {
  const snippet = await deps.db.selectFrom('snippets').selectAll().where('id', '=', snippetId).executeTakeFirst();
  if (!snippet || snippet.project_id === null) return null;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', snippet.project_id).executeTakeFirst();
  if (!project) return null;
  const namespace = await deps.db.selectFrom('namespaces').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const [groupIds, discussion] = await Promise.all([groupChain(deps, namespace), discussionPeople(deps, 'Snippet', Number(snippet.id), snippet.description)]);
  return {
    type: 'Snippet',
    id: Number(snippet.id),
    description: snippet.description,
    project,
    namespace,
    groupIds,
    assigneeIds: [],
    reviewerIds: [],
    participantIds: [...new Set([Number(snippet.author_id), ...discussion])],
    labelIds: [],
    readable: (subject) => canReadSnippet(subject.user, snippet, { ...subject, project, namespace }),
    snippet,
  };
}
