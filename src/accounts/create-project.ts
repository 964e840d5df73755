import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { checkLength } from '../platform/http/params.js';
import { NAME_MAX, PROJECT_DESCRIPTION_MAX } from './text-limits.js';
import type { Insertable } from 'kysely';
import type { ProjectsTable, Visibility } from '../platform/db/tables/accounts.js';
import type { DbTransaction } from '../platform/db/database.js';
import { recordEvent } from '../platform/events/record-event.js';
import { authorizeGroup, canOnGroup } from '../platform/auth/policies/index.js';
import { groupAccessLevel, type NamespaceRow, type ProjectRow } from './access.js';
import { pathFromName, pathProblems } from './paths.js';
import { projectVisibilityProblem } from './visibility.js';
import { releasePath } from './release-redirects.js';
import { defaultVisibility, restrictedVisibilityProblem } from '../application-settings/api.js';
import { publishProjectEvent } from './system-events.js';
import { accountHooks } from './hooks.js';
import { linkProjectTopics } from './project-topics.js';
import { mayCreatePersonalProject, personalProjectCounts } from './personal-projects.js';
import { parseStored, settingChanges } from './stored-settings.js';
import { PROJECT_SETTING_ALIASES, PROJECT_STORED_SETTINGS, runnerFlagColumns } from './settings-tables.js';
import { cleanTopics, settingColumns, settingsProblems } from './project-settings.js';
import type { ProjectSettingsInput } from './project-setting-params.js';

export interface CreateProjectInput extends ProjectSettingsInput {
  name?: string;
  path?: string;
  namespaceId?: number;
  visibility?: Visibility;
  description?: string;
  defaultBranch?: string;
  /** Further columns of the new row (a fork takes its upstream's feature levels and templates). */
  columns?: Partial<Insertable<ProjectsTable>>;
  /** Runs in the creating transaction once the row exists (a fork joins its network there). */
  afterInsert?: (trx: DbTransaction, project: ProjectRow) => Promise<void>;
}

/**
 * The namespace the project goes into: the caller's own by default. A group must allow the caller
 * create_projects (GitLab's default project creation level: Developers and Maintainers); another
 * user's personal namespace is only an administrator's to fill.
 */
async function targetNamespace(deps: Deps, actor: Principal, namespaceId: number | undefined): Promise<NamespaceRow> {
  const query = deps.db.selectFrom('namespaces').selectAll();
  const namespace = namespaceId === undefined
    ? await query.where('kind', '=', 'user').where('owner_id', '=', actor.user.id).executeTakeFirst()
    : await query.where('id', '=', namespaceId).executeTakeFirst();
  if (!namespace) throw new NotFoundError('Namespace');
  const level = await groupAccessLevel(deps.reads, actor.user, namespace, deps.clock.now());
  const access = { user: actor.user, level, visibility: namespace.visibility, group: namespace };
  if (!canOnGroup(access, 'read_group')) throw new NotFoundError('Namespace');
  authorizeGroup(access, 'create_projects');
  return namespace;
}

/** The settings sent with the project, as updateProject would write them right after. */
function settingValues(input: CreateProjectInput): Record<string, unknown> {
  const values: Record<string, unknown> = settingColumns(input.settings);
  delete values.description;
  const stored = input.stored && settingChanges(PROJECT_STORED_SETTINGS, PROJECT_SETTING_ALIASES, input.stored, '{}');
  if (stored !== undefined) Object.assign(values, { settings: stored, ...runnerFlagColumns(stored) });
  if (input.topics !== undefined) values.topics = JSON.stringify(cleanTopics(input.topics));
  if (input.issuesAccessLevel !== undefined) values.issues_access_level = input.issuesAccessLevel;
  if (input.repositoryAccessLevel !== undefined) values.repository_access_level = input.repositoryAccessLevel;
  if (input.mergeRequestsAccessLevel !== undefined) values.merge_requests_access_level = input.mergeRequestsAccessLevel;
  return values;
}

function groupDefaultBranch(namespace: NamespaceRow): string | undefined {
  const branch = namespace.kind === 'group' ? parseStored(namespace.settings).default_branch : undefined;
  return typeof branch === 'string' && branch.trim() !== '' ? branch : undefined;
}

/**
 * GitLab's User#can_create_project?: whether the user has personal projects left under their
 * projects_limit (the projects in their own namespace count). The limit when it is reached, else null.
 */
export async function reachedProjectsLimit(deps: Deps, userId: number): Promise<number | null> {
  const user = await deps.db.selectFrom('users').select('projects_limit').where('id', '=', userId).executeTakeFirst();
  const limit = Number(user?.projects_limit ?? 0);
  const personal = (await personalProjectCounts(deps.db, [userId])).get(userId) ?? 0;
  return mayCreatePersonalProject(limit, personal) ? null : limit;
}

/**
 * GitLab's Project#check_personal_projects_limit: a project in a personal namespace counts against its
 * creator's projects_limit; groups are not limited. A fork is created here too, so it is refused the same way.
 */
async function projectLimitProblem(deps: Deps, actor: Principal, namespace: NamespaceRow): Promise<string | null> {
  if (namespace.kind !== 'user') return null;
  const limit = await reachedProjectsLimit(deps, actor.user.id);
  if (limit === null) return null;
  return limit === 0
    ? 'Personal project creation is not allowed. Please contact your administrator with questions'
    : `Your project limit is ${limit} projects! Please contact your administrator to increase it`;
}

export async function createProject(deps: Deps, actor: Principal, input: CreateProjectInput): Promise<ProjectRow> {
  if (!input.name?.trim() && !input.path?.trim()) throw new ValidationError({ name: ["can't be blank"] });
  const namespace = await targetNamespace(deps, actor, input.namespaceId);
  const name = (input.name ?? input.path ?? '').trim();
  const path = input.path?.trim() || pathFromName(name);
  // The instance default when none is named, never above the group's visibility.
  const visibility = input.visibility ?? (await defaultVisibility(deps.db, 'project', namespace.kind === 'group' ? namespace.visibility : null));
  const errors: Record<string, string[]> = {};
  const problems = pathProblems(path, false);
  if (problems.length) errors.path = problems;
  checkLength(errors, 'name', name, NAME_MAX);
  checkLength(errors, 'description', input.description, PROJECT_DESCRIPTION_MAX);
  settingsProblems(errors, input.settings);
  const branch = input.defaultBranch?.trim() || undefined;
  if (branch !== undefined && accountHooks(deps).isValidBranchName?.(branch) === false) errors.default_branch = ['is invalid'];
  const visibilityProblem = projectVisibilityProblem(visibility, namespace) ?? (await restrictedVisibilityProblem(deps.db, actor.user, visibility));
  if (visibilityProblem) errors.visibility_level = [visibilityProblem];
  const limitProblem = await projectLimitProblem(deps, actor, namespace);
  if (limitProblem) errors.limit_reached = [limitProblem];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const settings = settingValues(input);
  const fullPath = `${namespace.full_path}/${path}`;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const inserted = await trx
        .insertInto('projects')
        .values({
          namespace_id: namespace.id,
          name,
          path,
          full_path: fullPath,
          full_path_lower: fullPath.toLowerCase(),
          description: input.description ?? '',
          visibility,
          creator_id: actor.user.id,
          // The group's default branch setting (settings-tables.ts), else the instance's.
          default_branch: branch ?? groupDefaultBranch(namespace) ?? 'main',
          created_at: now,
          updated_at: now,
          last_activity_at: now,
          ...settings,
          ...input.columns,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const project = inserted.topics === '[]' ? inserted : await linkProjectTopics(deps, trx, inserted);
      // A new project takes its path from any old project that still redirected there (GitLab's
      // Route#delete_conflicting_redirects).
      await releasePath(trx, fullPath);
      await input.afterInsert?.(trx, project);
      await recordEvent(trx, deps.clock, { projectId: project.id, authorId: actor.user.id, action: 'created' });
      // System hooks' project_create (domain-events.ts).
      await publishProjectEvent(deps, trx, 'project.created', Number(project.id), actor.user.id);
      return project;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ name: ['has already been taken'], path: ['has already been taken'] });
    throw error;
  }
}
