// The recipients of one issue or merge request notification, built as GitLab's NotificationRecipients::Builder::Default
// and ::NewNote build them (app/services/notification_recipients/builder/): candidates are gathered
// with the way they qualify, then each is asked notifiable? (recipient-rules.ts) and the first
// reason by priority is kept per user.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { UsersTable } from '../platform/db/tables/accounts.js';
import { levelOn, toAuthUser } from '../accounts/api.js';
import { projectTeamLevelsSql } from '../platform/auth/membership-queries.js';
import type { NotificationSettingRow } from './finder.js';
import { GLOBAL_SOURCE, defaultSetting } from './finder.js';
import { effectiveSetting, notifiable, reasonRank, type NotificationAction, type NotificationReason, type RecipientType } from './recipient-rules.js';
import { userIdsByUsername, type ThreadContext, type NoteRow } from './issue-context.js';
import { mentionedUsernames } from '../markdown/api.js';
import { labelSubscriberIds } from '../labels/api.js';

type UserRow = Selectable<UsersTable>;

export interface Recipient {
  user: UserRow;
  address: string;
  reason: NotificationReason;
}

export interface RecipientsInput {
  action: NotificationAction;
  /** Who acted; null when nobody did (a due date arriving). */
  actorId: number | null;
  context: ThreadContext;
  /** The new comment (new_note). */
  note?: NoteRow;
  previousAssigneeIds?: number[];
  previousReviewerIds?: number[];
  /** The users counted as mentioned, when the caller knows them (the new mentions of an edit); else read from the text. */
  mentionedIds?: number[];
  /** relabel_issue, relabel_merge_request: the labels the change added. */
  addedLabelIds?: number[];
}

const RELABEL: readonly NotificationAction[] = ['relabel_issue', 'relabel_merge_request'];
const NEW: readonly NotificationAction[] = ['new_issue', 'new_merge_request'];

interface Candidate {
  userId: number;
  type: RecipientType;
  reason: NotificationReason;
}

/**
 * The project's team with each member's level there (platform/auth/membership-queries.ts: direct, through
 * its groups, or the personal namespace's owner), and everyone with a setting on the project or its groups.
 */
async function watcherPool(deps: Deps, context: ThreadContext): Promise<{ ids: number[]; levels: Map<number, number> }> {
  const projectId = Number(context.project.id);
  const { rows: team } = await projectTeamLevelsSql(projectId, Number(context.namespace.id), deps.clock.now()).execute(deps.db);
  const settings = await deps.db
    .selectFrom('notification_settings')
    .select('user_id')
    .where((eb) => eb.or([
      eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', projectId)]),
      ...(context.groupIds.length ? [eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', 'in', context.groupIds)])] : []),
    ]))
    .execute();
  const levels = new Map(team.map((row) => [Number(row.user_id), Number(row.level)]));
  return { ids: [...new Set([...levels.keys(), ...settings.map((row) => Number(row.user_id))])], levels };
}

/**
 * Each user's setting as it applies to this project (recipient-rules.ts effectiveSetting); with no
 * project and no groups (a personal snippet) the global one.
 */
export async function settingsFor(deps: Deps, userIds: number[], context: { project: Pick<ThreadContext['project'], 'id'> | null; groupIds: number[] }): Promise<Map<number, NotificationSettingRow>> {
  const projectId = context.project === null ? null : Number(context.project.id);
  const rows = userIds.length
    ? await deps.db.selectFrom('notification_settings').selectAll().where('user_id', 'in', userIds).where((eb) => eb.or([
        eb('source_type', '=', 'Global'),
        ...(projectId === null ? [] : [eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', projectId)])]),
        ...(context.groupIds.length ? [eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', 'in', context.groupIds)])] : []),
      ])).execute()
    : [];
  const bySource = new Map(rows.map((row) => [`${row.user_id}:${row.source_type}:${row.source_id}`, row]));
  return new Map(userIds.map((userId) => {
    const project = projectId === null ? undefined : bySource.get(`${userId}:Project:${projectId}`);
    const groups = context.groupIds.map((groupId) => bySource.get(`${userId}:Namespace:${groupId}`));
    const global = bySource.get(`${userId}:Global:0`) ?? defaultSetting(userId, GLOBAL_SOURCE);
    return [userId, effectiveSetting(project, groups, global)];
  }));
}

/** Explicit subscriptions to the issue or merge request: user → subscribed. */
async function subscriptionsOf(deps: Deps, context: ThreadContext): Promise<Map<number, boolean>> {
  if (context.type === 'Snippet') return new Map();
  const rows = await deps.db.selectFrom('subscriptions').select(['user_id', 'subscribed']).where('subscribable_type', '=', context.type).where('subscribable_id', '=', context.id).execute();
  return new Map(rows.map((row) => [Number(row.user_id), row.subscribed === 1]));
}

/**
 * The address a user's notifications go to: the chosen notification e-mail when it is still one of
 * their confirmed addresses, else the primary one.
 */
export async function addressesOf(deps: Deps, users: UserRow[]): Promise<Map<number, string>> {
  const globals = users.length
    ? await deps.db.selectFrom('notification_settings').select(['user_id', 'notification_email']).where('user_id', 'in', users.map((user) => Number(user.id))).where('source_type', '=', 'Global').where('notification_email', 'is not', null).execute()
    : [];
  const chosen = new Map(globals.map((row) => [Number(row.user_id), row.notification_email!]));
  const confirmed = chosen.size
    ? await deps.db.selectFrom('emails').select(['user_id', 'email_lower']).where('user_id', 'in', [...chosen.keys()]).where('confirmed_at', 'is not', null).execute()
    : [];
  const addresses = new Map<number, string>();
  for (const user of users) {
    const pick = chosen.get(Number(user.id));
    const ok = pick !== undefined && (pick.toLowerCase() === user.email_lower || confirmed.some((row) => Number(row.user_id) === Number(user.id) && row.email_lower === pick.toLowerCase()));
    addresses.set(Number(user.id), ok ? pick : user.email);
  }
  return addresses;
}

/** Addresses under the reserved .invalid domain (RFC 2606: the alert bot's) can never receive mail. */
export function deliverable(address: string): boolean {
  return !/\.invalid$/i.test(address.trim());
}

/**
 * Who subscribed to the labels this notification is about, in the thread's project: those the
 * change added (GitLab's relabeled_resource_email), or those a new issue or merge request carries
 * (the builder's add_labels_subscribers).
 */
async function labelSubscribersOf(deps: Deps, input: RecipientsInput): Promise<number[]> {
  const labelIds = RELABEL.includes(input.action) ? (input.addedLabelIds ?? []) : NEW.includes(input.action) ? input.context.labelIds : [];
  return labelSubscriberIds(deps.db, labelIds, Number(input.context.project.id));
}

function candidatesOf(input: RecipientsInput, pool: number[], settings: Map<number, NotificationSettingRow>, subscriptions: Map<number, boolean>, mentioned: number[], labelSubscribers: number[]): Candidate[] {
  const { action, context } = input;
  const list: Candidate[] = [];
  const add = (ids: number[], type: RecipientType, reason: NotificationReason) => ids.forEach((userId) => list.push({ userId, type, reason }));
  // A relabeling mails the added labels' subscribers and nobody else; GitLab's mailer names no reason.
  if (RELABEL.includes(action)) {
    add(labelSubscribers, 'subscription', null);
    return list;
  }
  add(context.participantIds, 'participating', null);
  if (action === 'new_note') add(mentioned, 'mention', 'mentioned');
  // Watchers and custom levels come from the project's people (builder/base.rb project_watchers).
  add(pool.filter((id) => settings.get(id)?.level === 'watch'), 'watch', null);
  add(pool.filter((id) => settings.get(id)?.level === 'custom'), 'custom', null);
  // A reassignment counts as a mention of the previous and the new assignees (or reviewers).
  if (action === 'reassign_issue' || action === 'reassign_merge_request') {
    add(input.previousAssigneeIds ?? [], 'mention', null);
    add(context.assigneeIds, 'mention', 'assigned');
  }
  if (action === 'change_reviewer_merge_request') {
    add(input.previousReviewerIds ?? [], 'mention', null);
    add(context.reviewerIds, 'mention', 'review_requested');
  }
  add([...subscriptions].filter(([, on]) => on).map(([id]) => id), 'subscription', 'subscribed');
  if (action === 'new_issue' || action === 'new_merge_request') {
    add(mentioned, 'mention', 'mentioned');
    add(context.assigneeIds, 'participating', 'assigned');
    add(context.reviewerIds, 'participating', 'review_requested');
    add(labelSubscribers, 'subscription', 'subscribed');
  }
  return list;
}

export async function issueRecipients(deps: Deps, input: RecipientsInput): Promise<Recipient[]> {
  const { context } = input;
  const mentionText = input.action === 'new_note' ? input.note?.body : input.action === 'new_issue' || input.action === 'new_merge_request' ? context.description : null;
  const [{ ids: pool, levels }, subscriptions, mentioned, labelSubscribers] = await Promise.all([
    watcherPool(deps, context),
    subscriptionsOf(deps, context),
    input.mentionedIds ?? userIdsByUsername(deps, mentionedUsernames(mentionText)),
    labelSubscribersOf(deps, input),
  ]);
  const everyone = [...new Set([...pool, ...context.participantIds, ...context.assigneeIds, ...context.reviewerIds, ...(input.previousAssigneeIds ?? []), ...(input.previousReviewerIds ?? []), ...subscriptions.keys(), ...mentioned, ...labelSubscribers])];
  const settings = await settingsFor(deps, everyone, context);
  const candidates = candidatesOf(input, pool, settings, subscriptions, mentioned, labelSubscribers);
  const ids = [...new Set(candidates.map((candidate) => candidate.userId))];
  const users = ids.length ? await deps.db.selectFrom('users').selectAll().where('id', 'in', ids).execute() : [];
  const byId = new Map(users.map((user) => [Number(user.id), user]));
  const addresses = await addressesOf(deps, users);
  const access = new Map<number, boolean>();
  for (const user of users) {
    const authUser = toAuthUser(user);
    const level = levelOn(authUser, context.namespace, levels.get(Number(user.id)) ?? 0);
    const subject = { user: authUser, level, visibility: context.project.visibility, features: context.project };
    const readable = user.state === 'active' && user.user_type === 'human' && deliverable(addresses.get(Number(user.id))!) && context.readable(subject);
    access.set(Number(user.id), readable);
  }
  const kept = candidates.filter((candidate) => byId.has(candidate.userId) && notifiable({
    type: candidate.type,
    setting: settings.get(candidate.userId)!,
    isActor: candidate.userId === input.actorId,
    hasAccess: access.get(candidate.userId) === true,
    unsubscribed: subscriptions.get(candidate.userId) === false,
  }, input.action));
  const ranked = kept.map((candidate, index) => ({ candidate, index })).sort((a, b) => reasonRank(a.candidate.reason) - reasonRank(b.candidate.reason) || a.index - b.index);
  const seen = new Set<number>();
  const recipients: Recipient[] = [];
  for (const { candidate } of ranked) {
    if (seen.has(candidate.userId)) continue;
    seen.add(candidate.userId);
    recipients.push({ user: byId.get(candidate.userId)!, address: addresses.get(candidate.userId)!, reason: candidate.reason });
  }
  return recipients;
}
