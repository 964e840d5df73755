// The memberships that give a user access: the one definition of a user's effective level that the
// access checks, the project and group lists, the issue and merge request visibility, the search, the
// events and the notification recipients use.
//
// A membership counts while it is unexpired (GitLab's `members.expires_at`, compared with today's date);
// a project is reached directly, through its namespace or any ancestor group (the namespace chain), or
// by owning the personal namespace it is in, which counts as Owner; a group through itself or any
// ancestor. Sharing (GitLab's group links) adds the members of an invited group, direct or through a
// group above it, at the lower of their level there and the link's: a group shared with a group
// (group_group_links) reaches the shared group, its subgroups and their projects; a project shared
// with a group (project_group_links) the project. A link counts while unexpired, as a membership does,
// and links do not chain: the members of a group shared with the invited group are not invited. The rules are written once below as SQL text; the hot statements of every request (the
// access checks, the token read with its project) are put together from the same text, as templates
// made once, so that they stay one statement each (docs/performance.md).
import { sql, type RawBuilder } from 'kysely';
import { templateOf } from '../db/statements.js';
import { ACCESS } from './access-levels.js';
import { today } from './access-scope.js';

/** A membership `m` unexpired on the day bound at its one placeholder. */
export const LIVE_MEMBERSHIP = '(m.expires_at is null or m.expires_at >= ?)';

/**
 * The CTE `chain(id, parent_id)`: a namespace and every group above it. `start` is the FROM of the
 * first namespace, naming it `n` (`namespaces n where n.id = ?`, or reached through a project).
 */
export function namespaceChainText(start: string): string {
  return `with recursive chain(id, parent_id) as (
      select n.id, n.parent_id from ${start}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )`;
}

/**
 * The highest live level of `user` (a column or `?`) on the groups of `chain`. Placeholders: those of
 * `user`, then today. The chain is joined to members rather than tested with `source_id in (select …)`
 * (SQLite plans that with a bloom filter per execution, about ten times slower); `+c.id` is not an
 * index key, so SQLite walks the chain and looks members up by their unique key instead of building an
 * automatic index on the chain at every run.
 */
export function chainLevelText(user: string): string {
  return `(select max(m.access_level) from chain c
        join members m on m.user_id = ${user} and m.source_type = 'Namespace' and m.source_id = +c.id
        where ${LIVE_MEMBERSHIP})`;
}

/** The highest live level of `user` as a member of the project `project` itself. Placeholders: `user`'s, `project`'s, today. */
export function projectMemberLevelText(user: string, project: string): string {
  return `(select max(m.access_level) from members m
        where m.user_id = ${user} and m.source_type = 'Project' and m.source_id = ${project}
          and ${LIVE_MEMBERSHIP})`;
}

/** A link `l` (group_group_links or project_group_links) unexpired on the day bound at its one placeholder. */
export const LIVE_LINK = '(l.expires_at is null or l.expires_at >= ?)';

/** The lower of a member's level and a link's (SQLite's two-argument min is PostgreSQL's least). */
function cappedText(level: string, cap: string): string {
  return `case when ${level} < ${cap} then ${level} else ${cap} end`;
}

/**
 * The CTE `invited(id, parent_id, cap)`, following `chain` in the same WITH: the groups invited to a
 * group of the chain (group_group_links) and, with `project` (an expression of its id), to the project
 * (project_group_links), then every group above each (their members are the invited group's too), each
 * with its link's level as the cap. Placeholders: today (group links), then `project`'s and today.
 */
export function invitedGroupsText(project?: string): string {
  const projectLinks = project === undefined ? '' : `
      union all
      select n.id, n.parent_id, l.group_access from project_group_links l join namespaces n on n.id = l.group_id
        where l.project_id = ${project} and ${LIVE_LINK}`;
  return `, invited(id, parent_id, cap) as (
      select n.id, n.parent_id, l.group_access from chain c
        join group_group_links l on l.shared_group_id = +c.id
        join namespaces n on n.id = l.shared_with_group_id
        where ${LIVE_LINK}${projectLinks}
      union all
      select n.id, n.parent_id, i.cap from namespaces n join invited i on n.id = i.parent_id
    )`;
}

/** The highest live level of `user` as a member of an `invited` group, capped by its link. Placeholders: `user`'s, today. */
export function invitedLevelText(user: string): string {
  return `(select max(${cappedText('m.access_level', 'i.cap')}) from invited i
        join members m on m.user_id = ${user} and m.source_type = 'Namespace' and m.source_id = +i.id
        where ${LIVE_MEMBERSHIP})`;
}

/**
 * The live members of the `invited` groups, each at its level capped by its link, as the rows of a
 * members listing (`user_id`, `access_level`, `expires_at`, `created_at`). Placeholder: today.
 */
export const INVITED_MEMBERS = `select m.user_id, ${cappedText('m.access_level', 'i.cap')} as access_level, m.expires_at, m.created_at
      from invited i join members m on m.source_type = 'Namespace' and m.source_id = i.id
      where ${LIVE_MEMBERSHIP}`;

/** A template (for `q` statements and Kysely's `sql` alike) from text whose placeholders are `?`. */
export function templateOfText(text: string): TemplateStringsArray {
  return templateOf(text.split('?'));
}

const LIVE = templateOfText(LIVE_MEMBERSHIP);

/** LIVE_MEMBERSHIP on `day`, for statements of the query builder. */
function live(day: string): RawBuilder<boolean> {
  return sql<boolean>(LIVE, day);
}

const LIVE_LINK_TEMPLATE = templateOfText(LIVE_LINK);

function liveLink(day: string): RawBuilder<boolean> {
  return sql<boolean>(LIVE_LINK_TEMPLATE, day);
}

const CAPPED = sql.raw(cappedText('g.level', 'l.group_access'));

/**
 * The CTEs of a user's groups: `member_groups(id, level)`, the groups the user is a live member of and
 * every group below them, and `shared_groups(id, level)`, the groups shared with one of those (live
 * links) and every group below them, at the lower of the member's level and the link's. A group may
 * appear more than once (one row per way it is reached): take the max. Placeholders: the user, today,
 * today.
 */
const USER_GROUPS_CTES = `with recursive member_groups(id, level) as (
      select source_id, access_level from members m
        where source_type = 'Namespace' and user_id = ? and ${LIVE_MEMBERSHIP}
      union all
      select n.id, g.level from namespaces n join member_groups g on n.parent_id = g.id
    ), shared_groups(id, level) as (
      select l.shared_group_id, ${cappedText('g.level', 'l.group_access')} from member_groups g
        join group_group_links l on l.shared_with_group_id = g.id
        where ${LIVE_LINK}
      union all
      select n.id, s.level from namespaces n join shared_groups s on n.parent_id = s.id
    )`;

const USER_GROUPS_CTES_TEMPLATE = templateOfText(USER_GROUPS_CTES);

function userGroupsCtes(userId: number, day: string) {
  return sql(USER_GROUPS_CTES_TEMPLATE, userId, day, day);
}

/**
 * Continues userGroupsCtes with `project_groups(id, parent_id)`: the groups holding a project the user
 * reaches (any of memberProjectIdsSql's ways) and every group above each. GitLab's GroupPolicy lets
 * whoever may read a project in a group or below it read the group (has_projects), and
 * User#authorized_groups lists those groups with their ancestors. A group the user is a member of
 * counts only when it holds a project: the groups above an empty one are not reached. (A private
 * group holds no public or internal project, so reaching one through its visibility adds nothing.)
 */
function projectGroupsCte(userId: number, day: string) {
  return sql`, project_groups(id, parent_id) as (
      select n.id, n.parent_id from namespaces n where n.kind = 'group' and n.id in (
        select g.id from member_groups g where exists (select 1 from projects p where p.namespace_id = g.id)
        union all
        select s.id from shared_groups s where exists (select 1 from projects p where p.namespace_id = s.id)
        union all
        select p.namespace_id from members m join projects p on p.id = m.source_id
          where m.source_type = 'Project' and m.user_id = ${userId} and ${live(day)}
        union all
        select p.namespace_id from member_groups g join project_group_links l on l.group_id = g.id join projects p on p.id = l.project_id
          where ${liveLink(day)})
      union
      select n.id, n.parent_id from namespaces n join project_groups g on n.id = g.parent_id
    )`;
}

/**
 * Whether the user reaches a project in the group or in a group below it (GitLab's has_projects, by
 * which they read the group without a role in it). One statement, asked only when nothing else lets
 * them read the group.
 */
export function readsProjectInGroupSql(userId: number, groupId: number, nowMs: number): RawBuilder<{ reached: number }> {
  const day = today(nowMs);
  return sql<{ reached: number }>`
    ${userGroupsCtes(userId, day)}${projectGroupsCte(userId, day)}
    select 1 as reached from project_groups where id = ${groupId} limit 1`;
}

// Placeholders: those of USER_GROUPS_CTES, the level twice, the user, the user, the level, today,
// today, the level. Its rows may repeat a project (one row per way it is reached): it is only ever
// a set (`in (…)`), and `union all` spares both databases sorting the ids to drop the repeats (on
// SQLite a page of the caller's projects by membership ~340 → ~230 µs, docs/performance.md).
const MEMBER_PROJECT_IDS = templateOfText(`${USER_GROUPS_CTES}
    select id from projects where namespace_id in (
      select id from member_groups where level >= ?
      union all
      select id from shared_groups where level >= ?
      union all
      select id from namespaces where kind = 'user' and owner_id = ?)
    union all
    select source_id from members m
      where source_type = 'Project' and user_id = ? and access_level >= ? and ${LIVE_MEMBERSHIP}
    union all
    select l.project_id from member_groups g join project_group_links l on l.group_id = g.id
      where ${LIVE_LINK} and ${cappedText('g.level', 'l.group_access')} >= ?`);

/**
 * Ids of the projects where the user has at least `level`: a member (direct or inherited), the
 * personal owner, or invited through a group. A project may be named more than once: a set for `in (…)`.
 * One template made once, so the query builder compiles it as one piece.
 */
export function memberProjectIdsSql(userId: number, level: number, nowMs: number): RawBuilder<{ id: number }> {
  const day = today(nowMs);
  return sql<{ id: number }>(MEMBER_PROJECT_IDS, userId, day, day, level, level, userId, userId, level, day, day, level);
}

/**
 * Ids of the groups the user reaches (GitLab's User#authorized_groups): a live member of it or of a
 * group above it, invited (memberGroupLevelsSql), or holding, in it or below it, a project the user
 * reaches (projectGroupsCte), though without a role there.
 */
export function memberGroupIdsSql(userId: number, nowMs: number): RawBuilder<{ id: number }> {
  const day = today(nowMs);
  return sql<{ id: number }>`
    ${userGroupsCtes(userId, day)}${projectGroupsCte(userId, day)}
    select id from member_groups union select id from shared_groups union select id from project_groups`;
}

/**
 * Ids of the groups the user owns (GitLab's User#owned_groups): a live membership of the group itself
 * at Owner. Ownership inherited from a group above or reached through a share does not count.
 */
export function ownedGroupIdsSql(userId: number, nowMs: number): RawBuilder<{ id: number }> {
  return sql<{ id: number }>`
    select source_id as id from members m
      where source_type = 'Namespace' and user_id = ${userId} and access_level >= ${ACCESS.owner} and ${live(today(nowMs))}`;
}

/**
 * Full paths of the groups the user is a live member of and of every group below them, without the
 * groups shared with those (GitLab's User#membership_groups: the OpenID Connect `groups` claim).
 */
export function membershipGroupPathsSql(userId: number, nowMs: number, limit: number): RawBuilder<{ full_path: string }> {
  return sql<{ full_path: string }>`
    ${userGroupsCtes(userId, today(nowMs))}
    select full_path from namespaces where kind = 'group' and id in (select id from member_groups)
    order by full_path limit ${limit}`;
}

/**
 * Full paths of the groups the user is a live member of themselves, neither the groups below them nor
 * those shared with theirs (GitLab's User#groups: the OpenID Connect `groups_direct` claim), each with
 * the membership's own level; with `levels`, only the memberships at one of them (GitLab's
 * owned_groups, maintainers_groups and developer_groups compare the level for equality).
 */
export function directGroupPathsSql(userId: number, nowMs: number, limit: number, levels?: readonly number[]): RawBuilder<{ full_path: string; access_level: number }> {
  const atLevels = levels ? sql`and m.access_level in (${sql.join(levels)})` : sql``;
  return sql<{ full_path: string; access_level: number }>`
    select n.full_path, m.access_level from members m join namespaces n on n.id = m.source_id and n.kind = 'group'
      where m.source_type = 'Namespace' and m.user_id = ${userId} and ${live(today(nowMs))} ${atLevels}
    order by n.full_path limit ${limit}`;
}

/**
 * The groups the user reaches with the highest live level reaching each: its own membership, one of a
 * group above it, or an invitation of a group they are in. One statement for a whole list of groups,
 * where groupAccessLevel answers one group at a time.
 */
export function memberGroupLevelsSql(userId: number, nowMs: number): RawBuilder<{ id: number; level: number }> {
  return sql<{ id: number; level: number }>`
    ${userGroupsCtes(userId, today(nowMs))}
    select id, max(level) as level from (
      select id, level from member_groups union all select id, level from shared_groups
    ) reached group by id`;
}

/**
 * The user's live memberships (projects and groups, each with its level), the groups and projects
 * shared with a group they are in (at the capped level), and the personal namespace they own, at
 * Owner: where the events' visibility starts (events/visibility.ts, which adds the groups below), in
 * one round trip (members_user_source, namespaces_owner).
 */
export function directMembershipsSql(userId: number, nowMs: number) {
  const day = today(nowMs);
  return sql<{ source_type: 'Namespace' | 'Project' | 'Personal'; source_id: number; access_level: number }>`
    ${userGroupsCtes(userId, day)}
    select source_type, source_id, access_level from members m
      where user_id = ${userId} and ${live(day)}
    union all
    select 'Namespace', id, level from shared_groups
    union all
    select 'Project', l.project_id, ${CAPPED} from member_groups g join project_group_links l on l.group_id = g.id
      where ${liveLink(day)}
    union all
    select 'Personal', id, ${ACCESS.owner} from namespaces where owner_id = ${userId} and kind = 'user'`;
}

/** Group membership is inherited by every descendant group: each group under `groups` with the highest level reaching it. */
export function descendantGroupLevelsSql(groups: Array<{ id: number; level: number }>) {
  // Typed seeds: PostgreSQL requires the non-recursive term to match namespaces.id (bigint).
  const seeds = sql.join(groups.map((group) => sql`select cast(${sql.lit(group.id)} as bigint), cast(${sql.lit(group.level)} as integer)`), sql` union all `);
  return sql<{ id: number; level: number }>`
      with recursive tree(id, level) as (
        ${seeds}
        union all
        select n.id, t.level from namespaces n join tree t on n.parent_id = t.id
      ) select id, max(level) as level from tree group by id`;
}

const CHAIN_FROM_NAMESPACE = namespaceChainText('namespaces n where n.id = ?');

// Placeholders: the namespace (chain), today (group links), the project, today (project links), the
// project, today, today, today (invited members), the namespace (personal owner).
const PROJECT_TEAM_LEVELS = templateOfText(`${CHAIN_FROM_NAMESPACE}${invitedGroupsText('?')}
    select user_id, max(level) as level from (
      select m.user_id, m.access_level as level from members m
        where m.source_type = 'Project' and m.source_id = ? and ${LIVE_MEMBERSHIP}
      union all
      select m.user_id, m.access_level from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
        where ${LIVE_MEMBERSHIP}
      union all
      select m.user_id, ${cappedText('m.access_level', 'i.cap')} from invited i join members m on m.source_type = 'Namespace' and m.source_id = i.id
        where ${LIVE_MEMBERSHIP}
      union all
      select owner_id, ${ACCESS.owner} from namespaces where id = ? and kind = 'user' and owner_id is not null
    ) team group by user_id`);

/**
 * The users on a project's team (GitLab's `project.team`) with each one's effective level there: a live
 * membership of the project, of its namespace or of a group above it, of a group the project or one of
 * those groups is shared with (capped by the link), or owning the personal namespace it is in (Owner).
 * The project's access check reads the same rules for one user (accounts/access-queries.ts).
 */
export function projectTeamLevelsSql(projectId: number, namespaceId: number, nowMs: number): RawBuilder<{ user_id: number; level: number }> {
  const day = today(nowMs);
  return sql<{ user_id: number; level: number }>(PROJECT_TEAM_LEVELS, namespaceId, day, projectId, day, projectId, day, day, day, namespaceId);
}

/** The levels on a project's team (projectTeamLevelsSql) of the given users only. */
export function projectTeamLevelsOfSql(projectId: number, namespaceId: number, nowMs: number, userIds: number[]): RawBuilder<{ user_id: number; level: number }> {
  return sql<{ user_id: number; level: number }>`select user_id, level from (${projectTeamLevelsSql(projectId, namespaceId, nowMs)}) team where user_id in (${sql.join(userIds)})`;
}

/** Ids of the users on a project's team (projectTeamLevelsSql). */
export function projectTeamUserIdsSql(projectId: number, namespaceId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  return sql<{ user_id: number }>`select user_id from (${projectTeamLevelsSql(projectId, namespaceId, nowMs)}) team`;
}

// Placeholders: the group (chain), today (group links), today, today.
const GROUP_USERS = templateOfText(`${CHAIN_FROM_NAMESPACE}${invitedGroupsText()}
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where ${LIVE_MEMBERSHIP}
    union
    select m.user_id from invited i join members m on m.source_type = 'Namespace' and m.source_id = i.id
      where ${LIVE_MEMBERSHIP}`);

/**
 * Ids of the users with a live membership of the group or of a group above it (GitLab's
 * `users_with_parents`), or of a group invited to one of them.
 */
export function groupUserIdsSql(groupId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  const day = today(nowMs);
  return sql<{ user_id: number }>(GROUP_USERS, groupId, day, day, day);
}
