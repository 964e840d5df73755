// Access requests (GitLab's Members::RequestAccessService, AccessRequestsFinder, approve and deny): a
// signed-in user who is not a member of a public or internal project or group, whose
// request_access_enabled is on, asks to join; its Maintainers (project; the group's Owners when it
// has none) or Owners (group) are mailed, and approve (a member, Developer unless they choose) or
// deny (the requester is mailed either way); the requester may withdraw. A request grants nothing:
// it is its own row (access_requests), not a member.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import type { DbTransaction } from '../platform/db/statements.js';
import type { AccessRequestsTable } from '../platform/db/tables/access-requests.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import type { GroupAccess, ProjectAccess } from '../platform/auth/subjects.js';
import { belongsTo, canOnGroup, canOnProject } from '../platform/auth/policies/policy.js';
import { parseStored } from '../platform/db/stored-json.js';
import { html } from '../platform/web/html.js';
import { queueEmails } from '../email/api.js';
import type { MemberSource } from './member-source.js';
import { createMember } from './create-member.js';

export type AccessRequestRow = Selectable<AccessRequestsTable>;

/** A project's or group's access, with what the requests need of it. */
export interface RequestTarget {
  source: MemberSource;
  access: ProjectAccess | GroupAccess;
  kind: 'project' | 'group';
  name: string;
  /** The page of the project or group, from the base URL. */
  path: string;
  /** The namespace a project lives in (its group's Owners are asked when it has no Maintainers). */
  parentGroupId: number | null;
  requestAccessEnabled: boolean;
}

export function projectRequestTarget(access: ProjectAccess): RequestTarget {
  const { project, namespace } = access;
  return {
    source: { type: 'Project', id: Number(project.id) }, access, kind: 'project', name: project.name, path: `/${project.full_path}`,
    parentGroupId: namespace.kind === 'group' ? Number(namespace.id) : null,
    requestAccessEnabled: parseStored(project.settings).request_access_enabled !== false,
  };
}

export function groupRequestTarget(access: GroupAccess): RequestTarget {
  const { group } = access;
  return {
    source: { type: 'Namespace', id: Number(group.id) }, access, kind: 'group', name: group.name, path: `/groups/${group.full_path}`,
    parentGroupId: null, requestAccessEnabled: parseStored(group.settings).request_access_enabled !== false,
  };
}

/** Whether the caller may ask to join (GitLab's request_access ability). */
export function mayRequestAccess(target: RequestTarget): boolean {
  const { user, visibility } = target.access;
  if (!user || user.admin || belongsTo(target.access) || !target.requestAccessEnabled) return false;
  return visibility === 'public' || visibility === 'internal';
}

/** Whether the caller approves and denies requests (admin_*_member). */
export function mayManageRequests(target: RequestTarget): boolean {
  return target.kind === 'project' ? canOnProject(target.access, 'admin_project_member') : canOnGroup(target.access, 'admin_group_member');
}

export function accessRequestsQuery(deps: Deps, source: MemberSource) {
  return deps.db
    .selectFrom('access_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.state', 'u.avatar', 'r.requested_at'])
    .where('r.source_type', '=', source.type)
    .where('r.source_id', '=', source.id)
    .orderBy('r.requested_at', 'asc')
    .orderBy('r.id', 'asc');
}

export async function findAccessRequest(deps: Deps, source: MemberSource, userId: number): Promise<AccessRequestRow | undefined> {
  return deps.db.selectFrom('access_requests').selectAll().where('source_type', '=', source.type).where('source_id', '=', source.id).where('user_id', '=', userId).executeTakeFirst();
}

/** Up to ten active Maintainers and Owners to tell (GitLab's NotificationService#new_access_request). */
async function approvers(trx: DbTransaction, target: RequestTarget): Promise<Array<{ id: number; email: string }>> {
  const of = (source: MemberSource, min: number) =>
    trx.selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id').select(['u.id', 'u.email'])
      .where('m.source_type', '=', source.type).where('m.source_id', '=', source.id).where('m.access_level', '>=', min)
      .where('u.state', '=', 'active').orderBy('m.created_at', 'desc').limit(10).execute();
  let rows = await of(target.source, target.kind === 'project' ? ACCESS.maintainer : ACCESS.owner);
  if (!rows.length && target.parentGroupId !== null) rows = await of({ type: 'Namespace', id: target.parentGroupId }, ACCESS.owner);
  return rows.map((row) => ({ id: Number(row.id), email: row.email }));
}

function mail(deps: Deps, to: { id: number; email: string }, subject: string, text: string, body: string, tag: string) {
  return { from: deps.config.emailFrom, to: to.email, userId: to.id, subject, messageId: `${tag}@${new URL(deps.config.baseUrl).hostname}`, headers: {}, text, html: body };
}

export async function requestAccess(deps: Deps, target: RequestTarget): Promise<AccessRequestRow> {
  const user = target.access.user;
  if (!user || !mayRequestAccess(target)) throw new ForbiddenError();
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const row = await trx.insertInto('access_requests').values({ source_type: target.source.type, source_id: target.source.id, user_id: user.id, requested_at: now }).returningAll().executeTakeFirstOrThrow();
      const url = `${deps.config.baseUrl}${target.path}/-/${target.kind}_members`;
      const subject = `Request to join the ${target.name} ${target.kind}`;
      await queueEmails(deps, trx, (await approvers(trx, target)).map((to) => mail(deps, to, subject,
        `${user.name} (@${user.username}) requested Developer access to the ${target.name} ${target.kind}.\n\nApprove or deny it on the members page:\n\n${url}\n`,
        html`<p>${user.name} (@${user.username}) requested Developer access to the ${target.name} ${target.kind}.</p><p><a href="${url}">Approve or deny it on the members page</a>.</p>`.value,
        `access_request_${row.id}_${to.id}`)));
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ user: ['already exists in source'] });
    throw error;
  }
}

/** Makes the requester a member (Developer unless `accessLevel` says otherwise) and mails them. */
export async function approveAccessRequest(deps: Deps, target: RequestTarget, userId: number, accessLevel: number = ACCESS.developer) {
  if (!mayManageRequests(target)) throw new ForbiddenError();
  if (!(await findAccessRequest(deps, target.source, userId))) throw new NotFoundError('Access Request');
  return createMember(deps, target.access, target.source, { userId, accessLevel }, async (trx) => {
    const deleted = await trx.deleteFrom('access_requests').where('source_type', '=', target.source.type).where('source_id', '=', target.source.id).where('user_id', '=', userId).executeTakeFirst();
    // Withdrawn meanwhile: nothing to approve (the member just written goes with the transaction).
    if (Number(deleted.numDeletedRows) !== 1) throw new NotFoundError('Access Request');
    await tellRequester(deps, trx, target, userId, 'granted');
  });
}

/** Removes a request: denied by a manager (the requester is mailed) or withdrawn by the requester. */
export async function denyAccessRequest(deps: Deps, target: RequestTarget, userId: number): Promise<void> {
  const own = target.access.user?.id === userId;
  if (!own && !mayManageRequests(target)) throw new ForbiddenError();
  await inTransaction(deps.db, async (trx) => {
    const deleted = await trx.deleteFrom('access_requests').where('source_type', '=', target.source.type).where('source_id', '=', target.source.id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw new NotFoundError('Access Request');
    if (!own) await tellRequester(deps, trx, target, userId, 'denied');
  });
}

async function tellRequester(deps: Deps, trx: DbTransaction, target: RequestTarget, userId: number, outcome: 'granted' | 'denied') {
  const user = await trx.selectFrom('users').select(['id', 'email', 'state']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.state !== 'active') return;
  const url = `${deps.config.baseUrl}${target.path}`;
  const subject = `Access to the ${target.name} ${target.kind} was ${outcome}`;
  const text = outcome === 'granted' ? `You have been granted access to the ${target.name} ${target.kind}:\n\n${url}\n` : `Your request to join the ${target.name} ${target.kind} was denied.\n`;
  const body = outcome === 'granted' ? html`<p>You have been granted access to the <a href="${url}">${target.name}</a> ${target.kind}.</p>`.value : html`<p>Your request to join the ${target.name} ${target.kind} was denied.</p>`.value;
  await queueEmails(deps, trx, [mail(deps, { id: Number(user.id), email: user.email }, subject, text, body, `access_${outcome}_${target.source.type}_${target.source.id}_${userId}_${deps.clock.now()}`)]);
}
