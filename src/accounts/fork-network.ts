// Fork networks (GitLab's fork_networks and fork_network_members): which project a fork came from,
// which projects may open merge requests into one another, and the `forks_count` each keeps. The
// forks feature (src/forks/) makes and breaks the links; accounts shows them in the Project entity
// and keeps the count right when a project is deleted.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { DbTransaction, Executor } from '../platform/db/database.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { projectAccess, type ProjectRow } from './access.js';
import { PROJECT_SIMPLE_ENTITY, projectSource, type UrlConfig } from './entities.js';

/** Put `forkId` into the network of `upstreamId` (made, with the upstream as its root, if it has none). */
export async function joinForkNetwork(trx: DbTransaction, now: number, upstreamId: number, forkId: number): Promise<void> {
  const existing = await trx.selectFrom('fork_network_members').select('fork_network_id').where('project_id', '=', upstreamId).executeTakeFirst();
  let networkId = existing ? Number(existing.fork_network_id) : null;
  if (networkId === null) {
    const network = await trx.insertInto('fork_networks').values({ root_project_id: upstreamId, created_at: now }).returning('id').executeTakeFirstOrThrow();
    networkId = Number(network.id);
    await trx.insertInto('fork_network_members').values({ fork_network_id: networkId, project_id: upstreamId, created_at: now }).execute();
  }
  const own = await trx.selectFrom('fork_network_members').select('fork_network_id').where('project_id', '=', forkId).executeTakeFirst();
  if (own) {
    // A root of its own network linked as a fork (POST /projects/:id/fork/:forked_from_id): its forks
    // come along into the upstream's network.
    await trx.updateTable('fork_network_members').set({ fork_network_id: networkId }).where('fork_network_id', '=', Number(own.fork_network_id)).execute();
    await trx.deleteFrom('fork_networks').where('id', '=', Number(own.fork_network_id)).execute();
  } else {
    await trx.insertInto('fork_network_members').values({ fork_network_id: networkId, project_id: forkId, created_at: now }).execute();
  }
  await trx.updateTable('projects').set({ forked_from_project_id: upstreamId }).where('id', '=', forkId).execute();
  await trx.updateTable('projects').set((eb) => ({ forks_count: eb('forks_count', '+', 1) })).where('id', '=', upstreamId).execute();
}

/**
 * Take a project out of its network (an unlink, or before its deletion): its upstream counts one
 * fork less, its own forks no longer name it (they stay in the network, as forks of a deleted project do).
 */
export async function leaveForkNetwork(trx: DbTransaction, projectId: number): Promise<boolean> {
  const member = await trx.selectFrom('fork_network_members').select('id').where('project_id', '=', projectId).executeTakeFirst();
  if (!member) return false;
  const own = await trx.selectFrom('projects').select('forked_from_project_id').where('id', '=', projectId).executeTakeFirst();
  if (own && own.forked_from_project_id !== null) {
    await trx.updateTable('projects').set((eb) => ({ forks_count: eb('forks_count', '-', 1) })).where('id', '=', Number(own.forked_from_project_id)).where('forks_count', '>', 0).execute();
    await trx.updateTable('projects').set({ forked_from_project_id: null }).where('id', '=', projectId).execute();
  }
  await trx.updateTable('projects').set({ forked_from_project_id: null }).where('forked_from_project_id', '=', projectId).execute();
  await trx.updateTable('projects').set({ forks_count: 0 }).where('id', '=', projectId).where('forks_count', '>', 0).execute();
  await trx.updateTable('fork_networks').set({ root_project_id: null }).where('root_project_id', '=', projectId).execute();
  await trx.deleteFrom('fork_network_members').where('id', '=', Number(member.id)).execute();
  return true;
}

/** Whether the project is a fork (has an upstream it names). */
export async function isFork(db: Executor, projectId: number): Promise<boolean> {
  return (await forkedFromIds(db, [projectId])).size > 0;
}

/** The project each of `projectIds` was forked from (those that are forks). */
export async function forkedFromIds(db: Executor, projectIds: number[]): Promise<Map<number, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.selectFrom('projects').select(['id', 'forked_from_project_id']).where('id', 'in', projectIds).where('forked_from_project_id', 'is not', null).execute();
  return new Map(rows.map((row) => [Number(row.id), Number(row.forked_from_project_id)]));
}

/** Whether two projects are in one fork network (GitLab's in_fork_network_of?). */
export async function inSameForkNetwork(db: Executor, a: number, b: number): Promise<boolean> {
  const rows = await db.selectFrom('fork_network_members').select('fork_network_id').where('project_id', 'in', [a, b]).execute();
  return rows.length === 2 && Number(rows[0].fork_network_id) === Number(rows[1].fork_network_id);
}

/**
 * GitLab's `forked_from_project` (BasicProjectDetails) for the forks among `rows`, where the caller
 * may read the upstream (the entity leaves it out otherwise): the JSON per fork's id.
 */
export async function forkedFromJson(deps: Deps, config: UrlConfig, user: AuthUser | null, rows: ReadonlyArray<Pick<ProjectRow, 'id' | 'forked_from_project_id'>>): Promise<Map<number, string>> {
  // The rows carry their upstream: no statement at all unless one of them is a fork.
  const links = new Map(rows.filter((row) => row.forked_from_project_id != null).map((row) => [Number(row.id), Number(row.forked_from_project_id)]));
  const shown = new Map<number, string>();
  if (links.size === 0) return shown;
  const upstreams = await deps.db.selectFrom('projects').selectAll().where('id', 'in', [...new Set(links.values())]).execute();
  const json = new Map<number, string>();
  for (const upstream of upstreams) {
    const { level, namespace } = await projectAccess(deps.reads, user, upstream, deps.clock.now());
    if (!canOnProject({ user, level, visibility: upstream.visibility, features: upstream }, 'read_project')) continue;
    json.set(Number(upstream.id), PROJECT_SIMPLE_ENTITY.serialize(PROJECT_SIMPLE_ENTITY.present(projectSource(config, upstream, namespace))));
  }
  for (const [forkId, upstreamId] of links) {
    const value = json.get(upstreamId);
    if (value !== undefined) shown.set(forkId, value);
  }
  return shown;
}
