// PUT /projects/:id (GitLab's Projects::UpdateService): settings, a new name or path (the old path
// keeps answering through a redirect), visibility within the namespace's, feature access levels,
// topics, the default branch (the repository's HEAD) and the avatar.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject, canOnProject } from '../platform/auth/policies/index.js';
import type { UploadedFile } from '../platform/http/multipart.js';
import { checkLength } from '../platform/http/params.js';
import { cleanTopics, settingColumns, settingsProblems } from './project-settings.js';
import type { ProjectSettingsInput } from './project-setting-params.js';
import { NAME_MAX, PROJECT_DESCRIPTION_MAX } from './text-limits.js';
import type { ProjectRow } from './access.js';
import { pathProblems } from './paths.js';
import { projectVisibilityProblem } from './visibility.js';
import { restrictedVisibilityProblem } from '../application-settings/api.js';
import { recordRedirect } from './record-redirects.js';
import { releasePath } from './release-redirects.js';
import { removeAvatar } from './remove-avatar.js';
import { storeAvatar } from './store-avatar.js';
import { linkProjectTopics } from './project-topics.js';
import { accountHooks } from './hooks.js';
import { changesAnything, settingChanges } from './stored-settings.js';
import { PROJECT_SETTING_ALIASES, PROJECT_STORED_SETTINGS, runnerFlagColumns } from './settings-tables.js';
import { publishProjectEvent, publishProjectMove } from './system-events.js';

export interface UpdateProjectInput extends ProjectSettingsInput {
  name?: string;
  path?: string;
  visibility?: Visibility;
  defaultBranch?: string;
  /** A file to store, or null to remove the avatar. */
  avatar?: UploadedFile | null;
}

async function validate(deps: Deps, access: ProjectAccess, input: UpdateProjectInput): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && !input.name.trim()) errors.name = ["can't be blank"];
  checkLength(errors, 'name', input.name, NAME_MAX);
  checkLength(errors, 'description', input.settings?.description as string | undefined, PROJECT_DESCRIPTION_MAX);
  if (input.path !== undefined) {
    const problems = pathProblems(input.path, false);
    if (problems.length) errors.path = problems;
  }
  if (input.visibility !== undefined) {
    // A restricted level is refused only when it changes (GitLab's visibility_level_changed check).
    const problem = projectVisibilityProblem(input.visibility, access.namespace)
      ?? (input.visibility !== access.project.visibility ? await restrictedVisibilityProblem(deps.db, access.user, input.visibility) : null);
    if (problem) errors.visibility_level = [problem];
  }
  if (input.defaultBranch !== undefined && !input.defaultBranch.trim()) errors.default_branch = ["can't be blank"];
  settingsProblems(errors, input.settings);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function setDefaultBranch(deps: Deps, project: ProjectRow, branch: string): Promise<void> {
  const changeHead = accountHooks(deps).changeDefaultBranch;
  // Without the repositories feature there is no repository: the name is only stored.
  const outcome = changeHead ? await changeHead(Number(project.id), branch) : 'empty';
  if (outcome === 'invalid_name') throw new ValidationError({ default_branch: ['is invalid'] });
  if (outcome === 'missing_branch') throw new ValidationError({ base: [`Could not change HEAD: branch '${branch}' does not exist`] });
}

export async function updateProject(deps: Deps, access: ProjectAccess, input: UpdateProjectInput): Promise<ProjectRow> {
  // GitLab's Projects::UpdateService drops, without a word, what the caller may not change: the
  // project's artifact size limit is the administrators' (the request still succeeds, 200).
  if (input.stored?.max_artifacts_size !== undefined && !canOnProject(access, 'update_max_artifacts_size')) {
    const { max_artifacts_size: _dropped, ...allowed } = input.stored;
    input = { ...input, stored: allowed };
  }
  if (input.name !== undefined) authorizeProject(access, 'rename_project');
  if (input.visibility !== undefined) authorizeProject(access, 'change_visibility_level');
  await validate(deps, access, input);
  const project = access.project;
  // GitLab keeps project names unique in a namespace, as paths are.
  if (input.name !== undefined && input.name.trim() !== project.name) {
    const clash = await deps.db.selectFrom('projects').select('id').where('namespace_id', '=', project.namespace_id).where('name', '=', input.name.trim()).executeTakeFirst();
    if (clash) throw new ValidationError({ name: ['has already been taken'] });
  }
  const now = deps.clock.now();
  const changes: Record<string, unknown> = { updated_at: now };
  if (input.name !== undefined) changes.name = input.name.trim();
  Object.assign(changes, settingColumns(input.settings));
  const stored = input.stored && settingChanges(PROJECT_STORED_SETTINGS, PROJECT_SETTING_ALIASES, input.stored, project.settings);
  if (stored !== undefined) Object.assign(changes, { settings: stored, ...runnerFlagColumns(stored) });
  if (input.visibility !== undefined) changes.visibility = input.visibility;
  if (input.topics !== undefined) changes.topics = JSON.stringify(cleanTopics(input.topics));
  if (input.issuesAccessLevel !== undefined) changes.issues_access_level = input.issuesAccessLevel;
  if (input.repositoryAccessLevel !== undefined) changes.repository_access_level = input.repositoryAccessLevel;
  if (input.mergeRequestsAccessLevel !== undefined) changes.merge_requests_access_level = input.mergeRequestsAccessLevel;
  if (input.defaultBranch !== undefined && input.defaultBranch !== project.default_branch) {
    await setDefaultBranch(deps, project, input.defaultBranch);
    changes.default_branch = input.defaultBranch;
  }
  const newPath = input.path !== undefined && input.path !== project.path ? `${access.namespace.full_path}/${input.path}` : null;
  if (newPath) Object.assign(changes, { path: input.path, full_path: newPath, full_path_lower: newPath.toLowerCase() });
  // Applying the same configuration again changes nothing: no write, no new updated_at, no project_update hook.
  if (input.avatar === undefined && !changesAnything(project, changes)) return project;
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (input.avatar === null) {
        await removeAvatar(trx, 'Project', Number(project.id));
        changes.avatar = null;
      } else if (input.avatar) {
        changes.avatar = await storeAvatar(trx, 'Project', Number(project.id), input.avatar, now);
      }
      if (newPath) {
        await recordRedirect(trx, { type: 'Project', id: Number(project.id) }, project.full_path, now);
        await releasePath(trx, newPath);
      }
      let updated = await trx.updateTable('projects').set(changes).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
      if (input.topics !== undefined) updated = await linkProjectTopics(deps, trx, updated);
      // System hooks: project_rename when the path changed, project_update for any other saved edit (GitLab's UpdateService).
      const actorId = access.user?.id ?? null;
      if (newPath) await publishProjectMove(deps, trx, 'project.renamed', Number(project.id), actorId, project.full_path);
      else await publishProjectEvent(deps, trx, 'project.updated', Number(project.id), actorId);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ path: ['has already been taken'] });
    throw error;
  }
}
