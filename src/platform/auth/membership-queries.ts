// The memberships that give a user access: the one definition of a user's effective level that the
// access checks, the project and group lists, the issue and merge request visibility, the search, the
// events and the notification recipients use.
//
// A membership counts while it is unexpired (GitLab's `members.expires_at`, compared with today's date);
// a project is reached directly, through its namespace or any ancestor group (the namespace chain), or
// by owning the personal namespace it is in, which counts as Owner; a group through itself or any
// ancestor. The rules are written once below as SQL text; the hot statements of every request (the
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

/** A template (for `q` statements and Kysely's `sql` alike) from text whose placeholders are `?`. */
export function templateOfText(text: string): TemplateStringsArray {
  return templateOf(text.split('?'));
}

const LIVE = templateOfText(LIVE_MEMBERSHIP);

/** LIVE_MEMBERSHIP on `day`, for statements of the query builder. */
function live(day: string): RawBuilder<boolean> {
  return sql<boolean>(LIVE, day);
}

/** Ids of the projects where the user is a member with at least `level` (direct, inherited or personal owner). */
export function memberProjectIdsSql(userId: number, level: number, nowMs: number): RawBuilder<{ id: number }> {
  const day = today(nowMs);
  return sql<{ id: number }>`
    with recursive member_namespaces(id) as (
      select source_id from members m
        where source_type = 'Namespace' and user_id = ${userId} and access_level >= ${level} and ${live(day)}
      union
      select id from namespaces where kind = 'user' and owner_id = ${userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    )
    select id from projects where namespace_id in (select id from member_namespaces)
    union
    select source_id from members m
      where source_type = 'Project' and user_id = ${userId} and access_level >= ${level} and ${live(day)}`;
}

/** Ids of the groups the user is an unexpired member of, and of every group below them. */
export function memberGroupIdsSql(userId: number, nowMs: number): RawBuilder<{ id: number }> {
  return sql<{ id: number }>`
    with recursive member_groups(id) as (
      select source_id from members m
        where source_type = 'Namespace' and user_id = ${userId} and ${live(today(nowMs))}
      union
      select n.id from namespaces n join member_groups m on n.parent_id = m.id
    ) select id from member_groups`;
}

/**
 * The groups the user reaches (memberGroupIdsSql) with the highest live level reaching each: its own
 * membership or one of a group above it. One statement for a whole list of groups, where
 * groupAccessLevel answers one group at a time.
 */
export function memberGroupLevelsSql(userId: number, nowMs: number): RawBuilder<{ id: number; level: number }> {
  return sql<{ id: number; level: number }>`
    with recursive member_groups(id, level) as (
      select source_id, access_level from members m
        where source_type = 'Namespace' and user_id = ${userId} and ${live(today(nowMs))}
      union all
      select n.id, g.level from namespaces n join member_groups g on n.parent_id = g.id
    ) select id, max(level) as level from member_groups group by id`;
}

/**
 * The user's live memberships (projects and groups, each with its level) and the personal namespace they
 * own, at Owner: where the events' visibility starts (events/visibility.ts), in one round trip
 * (members_user_source, namespaces_owner).
 */
export function directMembershipsSql(userId: number, nowMs: number) {
  return sql<{ source_type: 'Namespace' | 'Project' | 'Personal'; source_id: number; access_level: number }>`
    select source_type, source_id, access_level from members m
      where user_id = ${userId} and ${live(today(nowMs))}
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

// Placeholders: the namespace (chain), the project, today, today, the namespace (personal owner).
const PROJECT_TEAM_LEVELS = templateOfText(`${CHAIN_FROM_NAMESPACE}
    select user_id, max(level) as level from (
      select m.user_id, m.access_level as level from members m
        where m.source_type = 'Project' and m.source_id = ? and ${LIVE_MEMBERSHIP}
      union all
      select m.user_id, m.access_level from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
        where ${LIVE_MEMBERSHIP}
      union all
      select owner_id, ${ACCESS.owner} from namespaces where id = ? and kind = 'user' and owner_id is not null
    ) team group by user_id`);

/**
 * The users on a project's team (GitLab's `project.team`) with each one's effective level there: a live
 * membership of the project, of its namespace or of a group above it, or owning the personal namespace
 * it is in (Owner). The project's access check reads the same rules for one user (projectAccessText).
 */
export function projectTeamLevelsSql(projectId: number, namespaceId: number, nowMs: number): RawBuilder<{ user_id: number; level: number }> {
  const day = today(nowMs);
  return sql<{ user_id: number; level: number }>(PROJECT_TEAM_LEVELS, namespaceId, projectId, day, day, namespaceId);
}

/** Ids of the users on a project's team (projectTeamLevelsSql). */
export function projectTeamUserIdsSql(projectId: number, namespaceId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  return sql<{ user_id: number }>`select user_id from (${projectTeamLevelsSql(projectId, namespaceId, nowMs)}) team`;
}

const GROUP_USERS = templateOfText(`${CHAIN_FROM_NAMESPACE}
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where ${LIVE_MEMBERSHIP}`);

/** Ids of the users with a live membership of the group or of a group above it (GitLab's `users_with_parents`). */
export function groupUserIdsSql(groupId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  return sql<{ user_id: number }>(GROUP_USERS, groupId, today(nowMs));
}
