// The payload of an event as a hook receives it (GitLab's hook_data), built from the rows `deps.db`
// reads: the listeners build it in the event's own transaction (listeners.ts), so what a hook is sent
// is what the event saw, never what the rows became before the job ran (issue 33).
import type { Deps } from '../platform/deps.js';
import type { DomainEvent, DomainEventKind } from '../platform/domain-events.js';
import { issueChangeSet, issueHookData, noteHookData, type IssueAction } from './payloads/issue.js';
import { pushHookData } from './payloads/push.js';
import { mergeRequestHookData, mergeRequestNoteHookData } from './payloads/merge-request.js';
import { deploymentHookData } from './payloads/deployment.js';
import { systemHookData } from './payloads/system-events.js';
import { releaseHookData } from './payloads/release.js';
import { jobHookData, pipelineHookData } from './payloads/ci.js';
import { groupWikiPageHookData, wikiPageHookData } from './payloads/wiki-page.js';
import { snippetNoteHookData } from './payloads/snippet-note.js';

const RELEASE_ACTIONS = { 'release.created': 'create', 'release.updated': 'update', 'release.deleted': 'delete' } as const;

export interface BuiltHook {
  /** X-Gitlab-Event */
  event: string;
  /** The log's trigger: GitLab's hook names (push_hooks, issue_hooks, …). */
  trigger: string;
  data: unknown;
}

const ISSUE_ACTIONS: Record<string, IssueAction> = {
  'issue.opened': 'open',
  'issue.closed': 'close',
  'issue.reopened': 'reopen',
  'issue.updated': 'update',
  'issue.reassigned': 'update',
};

/** The payload of an event as a hook receives it, or null when what it names is gone. */
export async function buildHook(deps: Deps, event: DomainEvent<DomainEventKind>): Promise<BuiltHook | null> {
  switch (event.kind) {
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened':
    case 'issue.updated':
    case 'issue.reassigned': {
      const built = await issueHookData(deps, { issueId: event.issueId, actorId: event.actorId, action: ISSUE_ACTIONS[event.kind], changes: issueChangeSet(event) });
      return built && { event: built.confidential ? 'Confidential Issue Hook' : 'Issue Hook', trigger: built.confidential ? 'confidential_issue_hooks' : 'issue_hooks', data: built.data };
    }
    case 'note.created': {
      if (event.noteableType === 'MergeRequest') {
        const data = await mergeRequestNoteHookData(deps, { noteId: event.noteId });
        return data && { event: 'Note Hook', trigger: 'note_hooks', data };
      }
      if (event.noteableType === 'Snippet') {
        const data = await snippetNoteHookData(deps, { noteId: event.noteId });
        return data && { event: 'Note Hook', trigger: 'note_hooks', data };
      }
      const built = await noteHookData(deps, { noteId: event.noteId, actorId: event.actorId });
      return built && { event: built.confidential ? 'Confidential Note Hook' : 'Note Hook', trigger: built.confidential ? 'confidential_note_hooks' : 'note_hooks', data: built.data };
    }
    case 'merge_request.opened':
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.updated':
    case 'merge_request.merged':
    case 'merge_request.approved':
    case 'merge_request.unapproved': {
      const data = await mergeRequestHookData(deps, event);
      return data && { event: 'Merge Request Hook', trigger: 'merge_request_hooks', data };
    }
    case 'push': {
      const data = await pushHookData(deps, event);
      const tag = event.ref.startsWith('refs/tags/');
      return data && { event: tag ? 'Tag Push Hook' : 'Push Hook', trigger: tag ? 'tag_push_hooks' : 'push_hooks', data };
    }
    case 'deployment.status_changed': {
      const data = await deploymentHookData(deps, { deploymentId: event.deploymentId, actorId: event.actorId, status: event.status });
      return data && { event: 'Deployment Hook', trigger: 'deployment_hooks', data };
    }
    case 'release.created':
    case 'release.updated':
    case 'release.deleted': {
      const data = await releaseHookData(deps, { releaseId: event.releaseId, action: RELEASE_ACTIONS[event.kind] });
      return data && { event: 'Release Hook', trigger: 'release_hooks', data };
    }
    case 'pipeline.status_changed': {
      const data = await pipelineHookData(deps, { pipelineId: event.pipelineId, status: event.status });
      return data && { event: 'Pipeline Hook', trigger: 'pipeline_hooks', data };
    }
    case 'job.status_changed': {
      const data = await jobHookData(deps, { buildId: event.buildId, status: event.status });
      return data && { event: 'Job Hook', trigger: 'job_hooks', data };
    }
    case 'wiki_page.changed': {
      const data = await wikiPageHookData(deps, event);
      return data && { event: 'Wiki Page Hook', trigger: 'wiki_page_hooks', data };
    }
    case 'group_wiki_page.changed': {
      const data = await groupWikiPageHookData(deps, event);
      return data && { event: 'Wiki Page Hook', trigger: 'wiki_page_hooks', data };
    }
    // A personal snippet's comment has no project, so no project hook (GitLab's personal snippets run none).
    case 'personal_snippet_note.created':
    case 'issue.due':
    case 'alert.created':
      return null;
    default:
      // System events carry their snapshot: formatted, never read (system-listeners.ts).
      return systemHookData(event);
  }
}
