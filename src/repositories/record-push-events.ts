// Push events (GitLab's REST API documentation, push_data) computed from the refs before and after a push:
// a new ref is `created` (commit_from null), a deleted one `removed` (commit_to null), anything else
// `pushed`. Only branches and tags make events, as in GitLab.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { PushData } from '../platform/events/vocabulary.js';
import { git } from './git.js';

export interface RefChange {
  ref: string;
  before: string | null;
  after: string | null;
}

/** Pure: the changed branch and tag refs between two snapshots, sorted by name. */
export function refChanges(before: Map<string, string>, after: Map<string, string>): RefChange[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const changes: RefChange[] = [];
  for (const ref of [...names].sort()) {
    if (!ref.startsWith('refs/heads/') && !ref.startsWith('refs/tags/')) continue;
    const was = before.get(ref) ?? null;
    const now = after.get(ref) ?? null;
    if (was !== now) changes.push({ ref, before: was, after: now });
  }
  return changes;
}

/** GitLab's commit_title: the first line of the message, stripped, at most 70 characters with `...`. */
export function commitTitle(message: string): string | null {
  const line = message.split('\n')[0].trim();
  if (line === '') return null;
  return line.length > 70 ? `${line.slice(0, 67)}...` : line;
}

async function pushData(repoPath: string, change: RefChange, before: Map<string, string>): Promise<PushData> {
  const isTag = change.ref.startsWith('refs/tags/');
  const action = change.before === null ? 'created' : change.after === null ? 'removed' : 'pushed';
  let commitCount = 0;
  let title: string | null = null;
  if (change.after !== null) {
    title = commitTitle(await git(repoPath, ['log', '-1', '--format=%B', change.after]).catch(() => ''));
    if (!isTag) {
      // New commits only: for a new branch, those not reachable from any ref that existed before.
      const exclude = action === 'created' ? [...new Set(before.values())].map((oid) => `^${oid}`) : [`^${change.before}`];
      const count = await git(repoPath, ['rev-list', '--count', change.after, ...exclude]).catch(() => '0');
      commitCount = Number(count.trim()) || 0;
    }
  }
  return {
    commit_count: commitCount,
    action,
    ref_type: isTag ? 'tag' : 'branch',
    commit_from: change.before,
    commit_to: change.after,
    ref: change.ref.replace(/^refs\/(heads|tags)\//, ''),
    commit_title: title,
    ref_count: null,
  };
}

/**
 * GitLab's push_event_activities_limit (default 3, Git::ProcessRefChangesService): changes are
 * grouped by ref type and action, and a group larger than the limit becomes one bulk event with
 * `ref_count` instead of one event per ref.
 */
export const PUSH_EVENT_ACTIVITIES_LIMIT = 3;

export function bulkPushData(group: PushData[]): PushData {
  return {
    commit_count: 0,
    action: group[0].action,
    ref_type: group[0].ref_type,
    commit_from: null,
    commit_to: null,
    // A bulk event names no single ref (GitLab stores nil); the events vocabulary types ref as string.
    ref: null as unknown as string,
    commit_title: null,
    ref_count: group.length,
  };
}

/** Pure: per-ref payloads in order, with groups over the limit collapsed into bulk payloads. */
export function eventPayloads(perRef: PushData[]): PushData[] {
  const groups = new Map<string, PushData[]>();
  for (const data of perRef) {
    const key = `${data.ref_type}:${data.action}`;
    groups.set(key, [...(groups.get(key) ?? []), data]);
  }
  return [...groups.values()].flatMap((group) => (group.length > PUSH_EVENT_ACTIVITIES_LIMIT ? [bulkPushData(group)] : group));
}

export async function recordPushEvents(deps: Deps, input: { projectId: number; authorId: number; repoPath: string; before: Map<string, string>; after: Map<string, string>; skipCi?: boolean }): Promise<number> {
  const changes = refChanges(input.before, input.after);
  if (changes.length === 0) return 0;
  const payloads = eventPayloads(await Promise.all(changes.map((change) => pushData(input.repoPath, change, input.before))));
  await inTransaction(deps.db, async (trx) => {
    for (const data of payloads) {
      await recordEvent(trx, deps.clock, { projectId: input.projectId, authorId: input.authorId, action: 'pushed', pushData: data });
    }
    await trx.updateTable('projects').set({ last_activity_at: deps.clock.now() }).where('id', '=', input.projectId).execute();
    // One domain event per changed ref, unlike the activity events (webhooks: a Push Hook per ref).
    for (const change of changes) {
      await deps.domainEvents.publish(trx, { kind: 'push', projectId: input.projectId, actorId: input.authorId, ref: change.ref, before: change.before, after: change.after, ...(input.skipCi ? { skipCi: true } : {}) });
    }
  });
  return payloads.length;
}
