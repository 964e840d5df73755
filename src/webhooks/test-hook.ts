// "Test" a hook (TestHooks::ProjectService): send the trigger's event built from the project's latest
// object of that kind, now, and answer whether the receiver accepted it. A success re-enables the hook.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { DomainEvent } from '../platform/domain-events.js';
import { ApiError } from '../platform/http/api-error.js';
import { readableRepository, runCommand } from '../repositories/api.js';
import type { HookRow } from './entities.js';
import { sendToHook, type SendOutcome } from './deliver-hook.js';
import { buildHook } from './build-hook.js';
import { newestWikiPage } from '../wikis/api.js';
import { PUSH_SAMPLE, REPOSITORY_UPDATE_SAMPLE } from './payloads/system-test-samples.js';
import { firstMergeRequestOfMemberProjects } from './system-test-queries.js';

export const TEST_TRIGGERS = [
  'push_events', 'tag_push_events', 'issues_events', 'confidential_issues_events', 'note_events', 'confidential_note_events',
  'merge_requests_events', 'job_events', 'pipeline_events', 'wiki_page_events', 'releases_events', 'emoji_events',
  'resource_access_token_events', 'deployment_events',
] as const;

const NOTHING: Record<string, string> = {
  push_events: 'Ensure the project has at least one commit.',
  tag_push_events: 'Ensure the project has tags.',
  issues_events: 'Ensure the project has issues.',
  confidential_issues_events: 'Ensure the project has issues.',
  note_events: 'Ensure the project has notes.',
  confidential_note_events: 'Ensure the project has notes.',
  merge_requests_events: 'Ensure the project has merge requests.',
  job_events: 'Ensure the project has CI jobs.',
  pipeline_events: 'Ensure the project has CI pipelines.',
  wiki_page_events: 'Ensure the wiki is enabled and has pages.',
  releases_events: 'Ensure the project has releases.',
  emoji_events: 'Ensure the project has notes.',
  resource_access_token_events: 'Ensure the project has resource access tokens.',
  deployment_events: 'Ensure the project has deployments.',
};

async function latestEvent(deps: Deps, projectId: number, actorId: number, trigger: string): Promise<DomainEvent | null> {
  const base = { projectId, actorId };
  switch (trigger) {
    case 'push_events':
    case 'tag_push_events': {
      const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
      const repo = await readableRepository(deps, project);
      if (!repo) return null;
      const tag = trigger === 'tag_push_events';
      const refs = await runCommand('git', ['--git-dir', repo, 'for-each-ref', '--sort=-creatordate', '--count=1', '--format=%(refname) %(objectname)', tag ? 'refs/tags/' : `refs/heads/${project.default_branch}`]);
      const [ref, after] = refs.trim().split(' ');
      if (!ref) return null;
      if (tag) return { kind: 'push', ...base, ref, before: null, after };
      const recent = (await runCommand('git', ['--git-dir', repo, 'rev-list', '--max-count=4', after])).trim().split('\n');
      return { kind: 'push', ...base, ref, before: recent[3] ?? null, after };
    }
    case 'issues_events':
    case 'confidential_issues_events': {
      const issue = await deps.db.selectFrom('issues').select('id').where('project_id', '=', projectId).orderBy('id', 'desc').executeTakeFirst();
      return issue ? { kind: 'issue.opened', ...base, issueId: Number(issue.id) } : null;
    }
    case 'note_events':
    case 'confidential_note_events': {
      const note = await deps.db.selectFrom('notes').select(['id', 'noteable_id', 'system']).where('project_id', '=', projectId).where('noteable_type', '=', 'Issue').orderBy('id', 'desc').executeTakeFirst();
      return note ? { kind: 'note.created', ...base, noteId: Number(note.id), noteableType: 'Issue', noteableId: Number(note.noteable_id), system: Number(note.system) === 1 } : null;
    }
    case 'deployment_events': {
      const deployment = await deps.db.selectFrom('deployments').select(['id', 'status']).where('project_id', '=', projectId).orderBy('id', 'desc').executeTakeFirst();
      return deployment ? { kind: 'deployment.status_changed', ...base, deploymentId: Number(deployment.id), status: deployment.status } : null;
    }
    case 'pipeline_events': {
      const pipeline = await deps.db.selectFrom('ci_pipelines').select(['id', 'sha', 'ref', 'status']).where('project_id', '=', projectId).orderBy('id', 'desc').executeTakeFirst();
      return pipeline ? { kind: 'pipeline.status_changed', ...base, pipelineId: Number(pipeline.id), sha: pipeline.sha, ref: pipeline.ref, status: pipeline.status } : null;
    }
    case 'job_events': {
      const build = await deps.db.selectFrom('ci_builds').select(['id', 'status']).where('project_id', '=', projectId).where('type', '=', 'Ci::Build').orderBy('id', 'desc').executeTakeFirst();
      return build ? { kind: 'job.status_changed', ...base, buildId: Number(build.id), status: build.status } : null;
    }
    case 'wiki_page_events': {
      const page = await newestWikiPage(deps, projectId);
      return page ? { kind: 'wiki_page.changed', ...base, slug: page.slug, path: page.path, action: 'create', commit: page.commit, readAt: page.commit, message: '' } : null;
    }
    default:
      return null;
  }
}

/** Send the test event; 422 with GitLab's message when there is nothing to send or the receiver refused it. */
export async function testProjectHook(deps: Deps, hook: HookRow, projectId: number, actorId: number, trigger: string): Promise<SendOutcome> {
  const event = await latestEvent(deps, projectId, actorId, trigger);
  const built = event && (await buildHook(deps, event));
  if (!built) throw new ApiError(422, { message: NOTHING[trigger] ?? 'Testing not available for this hook' });
  const outcome = await sendToHook(deps, { hook, event: built.event, trigger: built.trigger, data: built.data, eventUuid: randomUUID(), idempotencyKey: randomUUID() });
  return outcome;
}

/** GitLab's flash after a test: the receiver's status, or why no request was made. */
export function testOutcomeMessage(outcome: SendOutcome): { ok: boolean; message: string } {
  if (outcome.status === null) return { ok: false, message: `Hook execution failed: ${outcome.message}` };
  if (outcome.status >= 200 && outcome.status < 300) return { ok: true, message: `Hook executed successfully: HTTP ${outcome.status}` };
  return { ok: false, message: `Hook executed successfully but returned HTTP ${outcome.status}` };
}

/** The system hook test of lib/api/system_hooks.rb: a fixed sample project_create event, answered back. */
export const SYSTEM_HOOK_TEST_DATA = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' };

/** Send a system hook the sample event now (the API's POST /hooks/:id). */
export function testSystemHook(deps: Deps, hook: HookRow): Promise<SendOutcome> {
  return sendToHook(deps, { hook, event: 'System Hook', trigger: 'system_hooks', data: SYSTEM_HOOK_TEST_DATA, eventUuid: randomUUID(), idempotencyKey: randomUUID() });
}

/** The events the admin page tests a system hook with (GitLab's TestHooks::SystemService), each logged under its hook trigger. */
export const SYSTEM_TEST_TRIGGERS = {
  push_events: 'push_hooks', tag_push_events: 'tag_push_hooks', merge_requests_events: 'merge_request_hooks', repository_update_events: 'repository_update_hooks',
} as const;
export type SystemTestTrigger = keyof typeof SYSTEM_TEST_TRIGGERS;

async function systemTestData(deps: Deps, actorId: number, trigger: SystemTestTrigger): Promise<unknown> {
  if (trigger === 'push_events' || trigger === 'tag_push_events') return PUSH_SAMPLE;
  if (trigger === 'repository_update_events') return REPOSITORY_UPDATE_SAMPLE;
  const mergeRequestId = await firstMergeRequestOfMemberProjects(deps, actorId);
  // GitLab sends the merge request's hook data as it stands (to_hook_data): no change, and no action.
  const built = mergeRequestId === null ? null : await buildHook(deps, { kind: 'merge_request.updated', projectId: 0, actorId, mergeRequestId, changes: [], previous: {}, current: {} });
  if (!built) throw new ApiError(422, { message: 'Ensure one of your projects has merge requests.' });
  const data = built.data as { object_attributes: Record<string, unknown> };
  delete data.object_attributes.action;
  return data;
}

/** The admin page's Test of a system hook with one of its triggers; 422 when there is nothing to build it from. */
export async function testSystemHookWith(deps: Deps, hook: HookRow, actorId: number, trigger: SystemTestTrigger): Promise<SendOutcome> {
  const data = await systemTestData(deps, actorId, trigger);
  return sendToHook(deps, { hook, event: 'System Hook', trigger: SYSTEM_TEST_TRIGGERS[trigger], data, eventUuid: randomUUID(), idempotencyKey: randomUUID() });
}
