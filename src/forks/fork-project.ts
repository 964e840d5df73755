// Forking a project (GitLab's Projects::ForkService and POST /projects/:id/fork): a new project in a
// namespace where the caller may create projects, named and described as the upstream unless told
// otherwise, never more visible than the upstream or its namespace, with the upstream's feature
// levels and commit templates, in the upstream's fork network; then its repository, a hard-linked
// clone of the upstream's (repositories' fork-repository.ts). GitLab's 404s: the fork refused
// (`fork_project`), `Namespace`, `Source Branch`, `Target Namespace`; 409 with the model's messages.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess, ProjectRow, NamespaceRow } from '../platform/auth/subjects.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { NotFoundError, StatusError, ValidationError } from '../platform/errors.js';
import { canOnGroup, canOnProject } from '../platform/auth/policies/index.js';
import { createProject, deleteProject, groupAccessLevel, joinForkNetwork, parseStored } from '../accounts/api.js';
import { linkUpstreamLfsObjects } from './fork-queries.js';
import { BRANCH_PREFIX, findCommit, forkRepository, readableRepository } from '../repositories/api.js';

export interface ForkInput {
  namespaceId?: number;
  namespacePath?: string;
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  mrDefaultTargetSelf?: boolean;
  branches?: string;
}

const VISIBILITY_ORDER: Visibility[] = ['private', 'internal', 'public'];

/** The lower of two visibilities (GitLab's target_visibility_level takes the minimum). */
function lower(a: Visibility, b: Visibility): Visibility {
  return VISIBILITY_ORDER[Math.min(VISIBILITY_ORDER.indexOf(a), VISIBILITY_ORDER.indexOf(b))];
}

/** The feature levels of the stored settings a fork takes over (ProjectFeature: every `*_access_level`). */
function featureSettings(upstream: ProjectRow): string {
  const stored = parseStored(upstream.settings);
  return JSON.stringify(Object.fromEntries(Object.entries(stored).filter(([key]) => key.endsWith('_access_level'))));
}

/** fork_project, within the upstream's forking_access_level (the policy reads it from the project row). */
export function mayFork(access: ProjectAccess): boolean {
  return canOnProject(access, 'fork_project');
}

/** GitLab's ForkTargetsFinder: a namespace where the caller may create projects (administrators: any). */
export async function isForkTarget(deps: Deps, principal: Principal, namespace: NamespaceRow): Promise<boolean> {
  return isForkTargetAt(principal, namespace, await groupAccessLevel(deps.reads, principal.user, namespace, deps.clock.now()));
}

/** isForkTarget with the caller's level on the namespace already known (a list of them read at once). */
export function isForkTargetAt(principal: Principal, namespace: NamespaceRow, level: number): boolean {
  const access = { user: principal.user, level, visibility: namespace.visibility, group: namespace };
  return canOnGroup(access, 'read_group') && canOnGroup(access, 'create_projects');
}

async function targetNamespace(deps: Deps, principal: Principal, input: ForkInput): Promise<NamespaceRow> {
  const query = deps.db.selectFrom('namespaces').selectAll();
  // The deprecated `namespace` may carry any run of digits: one no id can be is no namespace (an
  // out-of-range bigint would fail the statement on PostgreSQL).
  const found = input.namespaceId !== undefined
    ? Number.isSafeInteger(input.namespaceId) ? await query.where('id', '=', input.namespaceId).executeTakeFirst() : undefined
    : input.namespacePath !== undefined
      ? await query.where('full_path_lower', '=', input.namespacePath.toLowerCase()).executeTakeFirst()
      : await query.where('kind', '=', 'user').where('owner_id', '=', principal.user.id).executeTakeFirst();
  if (!found) throw new NotFoundError('Namespace');
  return found;
}

/** The model's errors as GitLab's full messages (`Path has already been taken`). */
function fullMessages(error: ValidationError): string[] {
  return Object.entries(error.fields).flatMap(([field, messages]) => {
    const label = field.replace(/_level$/, '').replace(/_/g, ' ');
    return messages.map((message) => `${label.charAt(0).toUpperCase()}${label.slice(1)} ${message}`);
  });
}

export async function forkProject(deps: Deps, principal: Principal, upstreamAccess: ProjectAccess, input: ForkInput): Promise<ProjectRow> {
  if (!mayFork(upstreamAccess)) throw new NotFoundError();
  // The upstream row as it is now, read again rather than taken from the route's look-up.
  const upstream = await deps.db.selectFrom('projects').selectAll().where('id', '=', Number(upstreamAccess.project.id)).executeTakeFirst();
  if (!upstream) throw new NotFoundError('Project');
  const namespace = await targetNamespace(deps, principal, input);
  if (input.branches !== undefined && input.branches !== '') {
    const repoPath = await readableRepository(deps, upstream);
    if (!repoPath || !(await findCommit(repoPath, `${BRANCH_PREFIX}${input.branches}`))) throw new NotFoundError('Source Branch');
  }
  if (!(await isForkTarget(deps, principal, namespace))) throw new NotFoundError('Target Namespace');
  let visibility = lower(upstream.visibility, namespace.kind === 'group' ? namespace.visibility : 'public');
  if (input.visibility) visibility = lower(visibility, input.visibility);
  const branch = input.branches || undefined;
  const defaultBranch = branch ?? upstream.default_branch ?? 'main';
  let fork: ProjectRow;
  try {
    fork = await createProject(deps, principal, {
      name: input.name ?? upstream.name,
      path: input.path ?? upstream.path,
      namespaceId: Number(namespace.id),
      visibility,
      description: input.description ?? upstream.description ?? '',
      defaultBranch,
      columns: {
        issues_access_level: upstream.issues_access_level,
        repository_access_level: upstream.repository_access_level,
        merge_requests_access_level: upstream.merge_requests_access_level,
        merge_commit_template: upstream.merge_commit_template,
        squash_commit_template: upstream.squash_commit_template,
        suggestion_commit_message: upstream.suggestion_commit_message,
        settings: featureSettings(upstream),
        ...(input.mrDefaultTargetSelf === undefined ? {} : { mr_default_target_self: input.mrDefaultTargetSelf ? 1 : 0 }),
      },
      afterInsert: async (trx, project) => {
        await joinForkNetwork(trx, deps.clock.now(), Number(upstream.id), Number(project.id));
        await linkUpstreamLfsObjects(trx, Number(upstream.id), Number(project.id), deps.clock.now());
      },
    });
  } catch (error) {
    if (error instanceof ValidationError) throw new StatusError(409, fullMessages(error));
    throw error;
  }
  try {
    await forkRepository(deps, { upstreamId: Number(upstream.id), forkId: Number(fork.id), defaultBranch, branch });
  } catch (error) {
    // No half-made fork stays behind: the project goes with its failed copy.
    await deleteProject(deps, fork, principal.user.id);
    throw error;
  }
  // The row was read before afterInsert linked it to its upstream.
  return { ...fork, forked_from_project_id: Number(upstream.id) };
}
