// Activity events at scale (issue 4, Performance): one million events across 1,000 projects and 1,000
// users, generated inside the database by INSERT … SELECT over a number sequence (seconds, not minutes),
// then the three listings the issue names, as a user who belongs to five projects. One URL each: a
// diagnostic without a goal, as foundation.ts (issue 4 had set ≥ 0.3× the baseline, p99 < 20 ms).
import { sql, type RawBuilder } from 'kysely';
import type { Deps } from '../../src/platform/deps.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';
import { DIAGNOSTIC, type BenchScenario } from '../scenario.js';

const USERS = 1000;
const PROJECTS = 1000;
const EVENTS = 1_000_000;
const MEMBERS_PER_PROJECT = 4; // besides the owner: users p+1 … p+4 (mod 1000) are developers of project p
const SPAN_MS = 365 * 86_400_000; // the events cover the last year, oldest first
const PUSH = JSON.stringify({ commit_count: 3, action: 'pushed', ref_type: 'branch', commit_from: 'a'.repeat(40), commit_to: 'b'.repeat(40), ref: 'main', commit_title: 'Tune the bench', ref_count: null });

/** A `seq(k)` CTE of 0 … n-1 for INSERT … SELECT, in each dialect's fastest form. */
function seq(deps: Deps, n: number): RawBuilder<unknown> {
  return deps.dialect === 'postgres'
    ? sql`with seq(k) as (select generate_series(0, ${sql.lit(n - 1)}))`
    : sql`with recursive seq(k) as (select 0 union all select k + 1 from seq where k < ${sql.lit(n - 1)})`;
}

/** The id range of rows just inserted by one statement; the arithmetic below relies on it being contiguous. */
async function idRange(deps: Deps, table: string, where: RawBuilder<unknown>, expected: number): Promise<number> {
  const { rows } = await sql<{ lo: number; hi: number; n: number }>`select min(id) as lo, max(id) as hi, count(*) as n from ${sql.table(table)} where ${where}`.execute(deps.db);
  const { lo, hi, n } = rows[0];
  if (Number(n) !== expected || Number(hi) - Number(lo) + 1 !== expected) throw new Error(`bench seed: ${table} ids are not contiguous`);
  return Number(lo);
}

/**
 * The secondary indexes of `events`, exactly as the migrations made them. Dropping them for the bulk
 * insert and building them afterwards (one sort each) is several times faster than maintaining nine
 * B-trees row by row.
 */
async function eventIndexes(deps: Deps): Promise<Array<{ name: string; definition: string }>> {
  if (deps.dialect === 'postgres') {
    const { rows } = await sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = 'events' and indexname <> 'events_pkey'`.execute(deps.db);
    return rows;
  }
  const { rows } = await sql<{ name: string; definition: string }>`
    select name, sql as definition from sqlite_master where type = 'index' and tbl_name = 'events' and sql is not null`.execute(deps.db);
  return rows;
}

async function seedEvents(deps: Deps) {
  const now = deps.clock.now();
  const start = now - SPAN_MS;
  const step = Math.floor(SPAN_MS / EVENTS);
  return deps.db.transaction().execute(async (trx) => {
    const run = (query: RawBuilder<unknown>) => query.execute(trx);
    await run(sql`${seq(deps, USERS)} insert into users (username, username_lower, name, email, email_lower, state, admin, password_hash,
        otp_required, failed_attempts, bio, location, public_email, website_url, organization, private_profile, created_at, updated_at)
      select 'ev-u' || k, 'ev-u' || k, 'Bench user ' || k, 'ev-u' || k || '@bench.test', 'ev-u' || k || '@bench.test', 'active', 0, null,
        0, 0, '', '', '', '', '', 0, ${now}, ${now} from seq`);
    const u0 = await idRange({ ...deps, db: trx }, 'users', sql`username like 'ev-u%'`, USERS);
    await run(sql`insert into namespaces (kind, name, path, full_path, full_path_lower, parent_id, owner_id, visibility, description, read_only, created_at, updated_at)
      select 'user', username, username, username, username_lower, null, id, 'public', '', 0, ${now}, ${now} from users where id between ${u0} and ${u0 + USERS - 1} order by id`);
    // Project k belongs to user k; a third each public, internal, private.
    await run(sql`insert into projects (namespace_id, name, path, full_path, full_path_lower, description, visibility, creator_id, default_branch, created_at, updated_at, last_activity_at)
      select n.id, 'ev-p' || (n.owner_id - ${u0}), 'ev-p', n.full_path || '/ev-p', n.full_path_lower || '/ev-p', '',
        case (n.owner_id - ${u0}) % 3 when 0 then 'public' when 1 then 'internal' else 'private' end, n.owner_id, 'main', ${now}, ${now}, ${now}
      from namespaces n where n.kind = 'user' and n.owner_id between ${u0} and ${u0 + USERS - 1} order by n.owner_id`);
    const p0 = await idRange({ ...deps, db: trx }, 'projects', sql`full_path_lower like 'ev-u%/ev-p'`, PROJECTS);
    for (let j = 1; j <= MEMBERS_PER_PROJECT; j += 1) {
      await run(sql`insert into members (source_type, source_id, user_id, access_level, expires_at, created_by_id, created_at, updated_at)
        select 'Project', id, ${u0} + ((id - ${p0} + ${j}) % ${USERS}), 30, null, null, ${now}, ${now}
        from projects where id between ${p0} and ${p0 + PROJECTS - 1}`);
    }
    await run(sql`insert into issues (project_id, iid, title, description, state, issue_type, confidential, author_id, closed_by_id, closed_at, created_at, updated_at)
      select id, 1, 'Bench issue', null, 'opened', 'issue', 0, creator_id, null, null, ${now}, ${now} from projects where id between ${p0} and ${p0 + PROJECTS - 1} order by id`);
    const i0 = await idRange({ ...deps, db: trx }, 'issues', sql`project_id between ${p0} and ${p0 + PROJECTS - 1}`, PROJECTS);
    await run(sql`insert into notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at, updated_at)
      select project_id, 'Issue', id, author_id, 'A bench comment', 0, ${now}, ${now} from issues where id between ${i0} and ${i0 + PROJECTS - 1} order by id`);
    const n0 = await idRange({ ...deps, db: trx }, 'notes', sql`noteable_type = 'Issue' and noteable_id between ${i0} and ${i0 + PROJECTS - 1}`, PROJECTS);
    const indexes = await eventIndexes({ ...deps, db: trx });
    for (const index of indexes) await run(sql`drop index ${sql.id(index.name)}`);
    // Event k: project k mod 1000, authored by the owner or one of the four members, a mix of actions:
    // 0-3 pushed, 4 created issue, 5-6 commented, 7 closed, 8 reopened, 9 joined.
    await run(sql`${seq(deps, EVENTS)}, shaped(k, p, a, c) as (
        select k, k % ${PROJECTS}, (k / ${PROJECTS}) % ${MEMBERS_PER_PROJECT + 1}, (k / ${PROJECTS} + k % 7) % 10 from seq)
      insert into events (project_id, author_id, action, target_type, target_id, target_iid, target_title, push_data, created_at)
      select ${p0} + p, ${u0} + ((p + a) % ${USERS}),
        case when c < 4 then 'pushed' when c = 4 then 'created' when c < 7 then 'commented' when c = 7 then 'closed' when c = 8 then 'reopened' else 'joined' end,
        case when c in (4, 7, 8) then 'Issue' when c in (5, 6) then 'Note' else null end,
        case when c in (4, 7, 8) then ${i0} + p when c in (5, 6) then ${n0} + p else null end,
        case when c in (4, 7, 8) then 1 else null end,
        case when c in (4, 7, 8) then 'Bench issue' else null end,
        case when c < 4 then ${PUSH} else null end,
        ${start} + k * ${step}
      from shaped order by k`);
    for (const index of indexes) await run(sql.raw(index.definition));
    return { u0, p0 };
  });
}

export const eventsScenario: BenchScenario = {
  name: 'events',
  async seed(deps) {
    const started = Date.now();
    // A large page cache while building: index maintenance on a million rows is otherwise bound by
    // evicting and re-reading B-tree pages (this connection only; reset afterwards).
    if (deps.dialect === 'sqlite') await sql`pragma cache_size = -1048576`.execute(deps.db);
    const { u0, p0 } = await seedEvents(deps);
    if (deps.dialect === 'sqlite') await sql`pragma cache_size = -2000`.execute(deps.db);
    if (deps.dialect === 'sqlite') await sql`analyze`.execute(deps.db);
    else await sql`analyze events`.execute(deps.db);
    const { token } = await createPersonalAccessToken(deps, { userId: u0, name: 'events bench', scopes: ['api'] });
    const after = new Date(deps.clock.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    return { token, viewedUser: u0 + 1, project: p0, after, seedSeconds: (Date.now() - started) / 1000 };
  },
  async targets(_server, seeded) {
    const headers = { 'private-token': String(seeded.token) };
    return [
      { name: 'GET /events?scope=all', method: 'GET', path: '/api/v4/events?scope=all', headers, targets: DIAGNOSTIC, connections: 10 },
      { name: 'GET /projects/:id/events?action=pushed', method: 'GET', path: `/api/v4/projects/${seeded.project}/events?action=pushed`, headers, targets: DIAGNOSTIC, connections: 10 },
      { name: 'GET /users/:id/events?after=…', method: 'GET', path: `/api/v4/users/${seeded.viewedUser}/events?after=${seeded.after}`, headers, targets: DIAGNOSTIC, connections: 10 },
    ];
  },
};

export default eventsScenario;
