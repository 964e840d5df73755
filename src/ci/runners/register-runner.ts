// Creating runners (GitLab's Ci::Runners::RegisterRunnerService and CreateRunnerService): with a
// legacy registration token (`POST /runners`: the instance's, a group's or a project's decides the
// runner's type and scope) or by a user (`POST /user/runners`, a `glrt-` token). The runner's
// attributes are GitLab's, validated in its words.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import { newToken, tokenDigest } from '../tokens.js';
import type { CiRunnerRow } from '../entities.js';

export interface RunnerAttributes {
  description?: string;
  maintenanceNote?: string;
  paused?: boolean;
  locked?: boolean;
  runUntagged?: boolean;
  tagList?: string[];
  accessLevel?: string;
  maximumTimeout?: number;
  info?: Record<string, unknown>;
}

export interface RunnerScope {
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  groupId?: number;
  projectId?: number;
}

/** GitLab's `tag_list`: an array, or a comma-separated string. */
export function parseTagList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return [...new Set(list.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

export function validateRunner(attributes: RunnerAttributes, current?: CiRunnerRow): void {
  const errors: Record<string, string[]> = {};
  const runUntagged = attributes.runUntagged ?? (current ? Number(current.run_untagged) === 1 : true);
  const tags = attributes.tagList ?? (current ? (JSON.parse(current.tag_list) as string[]) : []);
  if (!runUntagged && tags.length === 0) errors.tags_list = ['can not be empty when runner is not allowed to pick untagged jobs'];
  if (tags.length > 50) errors.tags_list = ['Too many tags specified. Please limit the number of tags to 50'];
  if (attributes.maximumTimeout !== undefined && attributes.maximumTimeout < 600) errors.maximum_timeout = ['needs to be at least 10 minutes'];
  if (attributes.description !== undefined && [...attributes.description].length > 1024) errors.description = ['is too long (maximum is 1024 characters)'];
  if (attributes.accessLevel !== undefined && !['not_protected', 'ref_protected'].includes(attributes.accessLevel)) errors.access_level = ['is not included in the list'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function infoColumns(info: Record<string, unknown> | undefined) {
  if (!info) return {};
  const text = (key: string) => (typeof info[key] === 'string' ? String(info[key]).slice(0, 255) : null);
  return { version: text('version'), revision: text('revision'), platform: text('platform'), architecture: text('architecture'), executor_type: text('executor') };
}

export function runnerColumns(attributes: RunnerAttributes) {
  return {
    ...(attributes.description !== undefined ? { description: attributes.description } : {}),
    ...(attributes.maintenanceNote !== undefined ? { maintenance_note: attributes.maintenanceNote } : {}),
    ...(attributes.paused !== undefined ? { active: attributes.paused ? 0 : 1 } : {}),
    ...(attributes.locked !== undefined ? { locked: attributes.locked ? 1 : 0 } : {}),
    ...(attributes.runUntagged !== undefined ? { run_untagged: attributes.runUntagged ? 1 : 0 } : {}),
    ...(attributes.tagList !== undefined ? { tag_list: JSON.stringify(attributes.tagList) } : {}),
    ...(attributes.accessLevel !== undefined ? { access_level: attributes.accessLevel } : {}),
    ...(attributes.maximumTimeout !== undefined ? { maximum_timeout: attributes.maximumTimeout } : {}),
    ...infoColumns(attributes.info),
  };
}

export async function createRunner(deps: Deps, scope: RunnerScope, attributes: RunnerAttributes, options: { creatorId: number | null; registration: 'registration_token' | 'authenticated_user' }): Promise<{ runner: CiRunnerRow; token: string }> {
  validateRunner(attributes);
  const prefix = options.registration === 'authenticated_user' ? 'glrt-' : '';
  const token = newToken(prefix);
  const now = deps.clock.now();
  const runner = await inTransaction(deps.db, async (trx) => {
    const row = await trx
      .insertInto('ci_runners')
      .values({
        runner_type: scope.runnerType, token_digest: tokenDigest(token), token_prefix: prefix, group_id: scope.groupId ?? null, registration_type: options.registration,
        creator_id: options.creatorId, created_at: now, updated_at: now, ...runnerColumns(attributes),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (scope.projectId !== undefined) await trx.insertInto('ci_runner_projects').values({ runner_id: row.id, project_id: scope.projectId, created_at: now }).execute();
    return row;
  });
  return { runner, token };
}

/** Which scope a legacy registration token opens, or null. */
export async function registrationScope(deps: Deps, token: string): Promise<RunnerScope | null> {
  const row = await deps.db.selectFrom('ci_registration_tokens').selectAll().where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
  if (!row) return null;
  if (row.scope === 'instance') return { runnerType: 'instance_type' };
  if (row.scope === 'group') return { runnerType: 'group_type', groupId: Number(row.subject_id) };
  return { runnerType: 'project_type', projectId: Number(row.subject_id) };
}

/** A new registration token for the instance, a group or a project; the old one stops working. Shown once. */
export async function resetRegistrationToken(deps: Deps, scope: 'instance' | 'group' | 'project', subjectId: number | null): Promise<string> {
  const token = scope === 'instance' ? newToken() : newToken('GR1348941');
  await inTransaction(deps.db, async (trx) => {
    let old = trx.deleteFrom('ci_registration_tokens').where('scope', '=', scope);
    old = subjectId === null ? old.where('subject_id', 'is', null) : old.where('subject_id', '=', subjectId);
    await old.execute();
    await trx.insertInto('ci_registration_tokens').values({ scope, subject_id: subjectId, token_digest: tokenDigest(token), created_at: deps.clock.now() }).execute();
  });
  return token;
}
