// CI/CD variables of an owner (the instance, a group or a project; GitLab's Ci::InstanceVariable,
// Ci::GroupVariable and Ci::Variable), their values sealed with the instance key, looked up by key
// and, where two scopes share a key, `filter[environment_scope]` (Ci::VariablesFinder).
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import { isUniqueViolation, type Executor } from '../../platform/db/database.js';
import type { CiVariablesTable } from '../../platform/db/tables/ci-settings.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { variableErrors } from './variable-rules.js';

export type CiVariableRow = Selectable<CiVariablesTable>;
export type VariableOwner = { kind: 'instance' } | { kind: 'group'; id: number } | { kind: 'project'; id: number };

export interface VariableInput {
  key?: string;
  value?: string;
  variable_type?: string;
  protected?: boolean;
  masked?: boolean;
  raw?: boolean;
  environment_scope?: string;
  description?: string;
}

export function ownedBy(db: Executor, owner: VariableOwner) {
  const query = db.selectFrom('ci_variables').selectAll();
  if (owner.kind === 'project') return query.where('project_id', '=', owner.id);
  if (owner.kind === 'group') return query.where('group_id', '=', owner.id).where('project_id', 'is', null);
  return query.where('project_id', 'is', null).where('group_id', 'is', null);
}

/** GitLab's find_variable: one variable by key (and scope); two with the key and no filter is a 409. */
export async function findVariable(db: Executor, owner: VariableOwner, key: string, scope: string | undefined): Promise<CiVariableRow> {
  let query = ownedBy(db, owner).where('key', '=', key);
  if (scope !== undefined && owner.kind !== 'instance') query = query.where('environment_scope', '=', scope);
  const rows = await query.orderBy('id').limit(2).execute();
  if (rows.length === 0) throw new NotFoundError('Variable');
  if (rows.length > 1) throw new ConflictError("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'");
  return rows[0];
}

async function checkUnique(db: Executor, owner: VariableOwner, key: string, scope: string, exceptId?: number): Promise<void> {
  let query = ownedBy(db, owner).where('key', '=', key).where('environment_scope', '=', scope);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new ValidationError({ key: [`(${key}) has already been taken`] });
}

/** The unique index decides when two requests pass checkUnique at once: the loser gets the same 400. */
async function takenOnRace(key: string, write: Promise<CiVariableRow>): Promise<CiVariableRow> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ key: [`(${key}) has already been taken`] });
    throw error;
  }
}

function check(fields: { key: string; value: string; masked: boolean; environmentScope: string }): void {
  const errors = variableErrors(fields);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createVariable(deps: Deps, owner: VariableOwner, input: VariableInput & { key: string; value: string }): Promise<CiVariableRow> {
  const scope = owner.kind === 'instance' ? '*' : (input.environment_scope ?? '*');
  check({ key: input.key, value: input.value, masked: input.masked ?? false, environmentScope: scope });
  await checkUnique(deps.db, owner, input.key, scope);
  const now = deps.clock.now();
  return takenOnRace(input.key, deps.db
    .insertInto('ci_variables')
    .values({
      project_id: owner.kind === 'project' ? owner.id : null, group_id: owner.kind === 'group' ? owner.id : null,
      key: input.key, value_sealed: deps.box.seal(input.value), variable_type: input.variable_type ?? 'env_var',
      protected: input.protected ? 1 : 0, masked: input.masked ? 1 : 0, raw: input.raw ? 1 : 0, environment_scope: scope,
      description: input.description ?? null, created_at: now, updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow());
}

export async function updateVariable(deps: Deps, owner: VariableOwner, existing: CiVariableRow, input: VariableInput): Promise<CiVariableRow> {
  const value = input.value ?? deps.box.open(existing.value_sealed);
  const masked = input.masked ?? Number(existing.masked) === 1;
  const scope = owner.kind === 'instance' ? '*' : (input.environment_scope ?? existing.environment_scope);
  check({ key: existing.key, value, masked, environmentScope: scope });
  if (scope !== existing.environment_scope) await checkUnique(deps.db, owner, existing.key, scope, Number(existing.id));
  return takenOnRace(existing.key, deps.db
    .updateTable('ci_variables')
    .set({
      value_sealed: input.value === undefined ? existing.value_sealed : deps.box.seal(input.value),
      ...(input.variable_type !== undefined ? { variable_type: input.variable_type } : {}),
      ...(input.protected !== undefined ? { protected: input.protected ? 1 : 0 } : {}),
      masked: masked ? 1 : 0,
      ...(input.raw !== undefined ? { raw: input.raw ? 1 : 0 } : {}),
      environment_scope: scope,
      ...(input.description !== undefined ? { description: input.description } : {}),
      updated_at: deps.clock.now(),
    })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow());
}

export async function deleteVariable(db: Executor, row: CiVariableRow): Promise<void> {
  await db.deleteFrom('ci_variables').where('id', '=', row.id).execute();
}

/** GitLab's Entities::Ci::Variable; the instance's have no environment scope. */
export function variableEntity(deps: Deps, row: CiVariableRow) {
  const instance = row.project_id === null && row.group_id === null;
  return {
    variable_type: row.variable_type,
    key: row.key,
    value: deps.box.open(row.value_sealed),
    protected: Number(row.protected) === 1,
    masked: Number(row.masked) === 1,
    raw: Number(row.raw) === 1,
    ...(instance ? {} : { environment_scope: row.environment_scope }),
    description: row.description,
  };
}
