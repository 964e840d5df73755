// The variables of the instance, the project's groups and the project that a job gets (GitLab's
// Ci::Variables::Builder#secret_instance_variables, secret_group_variables, secret_project_variables):
// in that order of precedence (instance lowest, the nearest group over its parents, the project over
// all), protected ones only for a job on a protected ref, and only those whose environment scope
// matches the job's environment.
import type { Executor } from '../../platform/db/database.js';
import type { SecretBox } from '../../platform/crypto.js';
import { groupAndAncestorIds } from '../../labels/api.js';
import { scopeMatches, scopeRank } from './variable-rules.js';

export interface JobVariable {
  key: string;
  value: string;
  public: boolean;
  file: boolean;
  masked: boolean;
  raw: boolean;
}

export interface JobFacts {
  protected: boolean;
  environment: string | null;
}

export async function settingsVariables(db: Executor, box: SecretBox, project: { id: number; namespace_id: number }, job: JobFacts): Promise<JobVariable[]> {
  const groups = await groupAndAncestorIds(db, Number(project.namespace_id));
  let query = db
    .selectFrom('ci_variables')
    .selectAll()
    .where((eb) => eb.or([
      eb('project_id', '=', project.id),
      eb.and([eb('project_id', 'is', null), eb('group_id', 'is', null)]),
      ...(groups.length ? [eb('group_id', 'in', groups)] : []),
    ]));
  if (!job.protected) query = query.where('protected', '=', 0);
  const rows = (await query.execute()).filter((row) => scopeMatches(row.environment_scope, job.environment));
  // Lowest precedence first: the runner (and GitLab's collection) lets a later variable of a key win.
  const level = (row: (typeof rows)[number]) => (row.project_id !== null ? groups.length + 1 : row.group_id !== null ? groups.length - groups.indexOf(Number(row.group_id)) : 0);
  rows.sort((a, b) => level(a) - level(b) || scopeRank(a.environment_scope) - scopeRank(b.environment_scope) || Number(a.id) - Number(b.id));
  return rows.map((row) => ({
    key: row.key,
    value: box.open(row.value_sealed),
    public: false,
    file: row.variable_type === 'file',
    masked: Number(row.masked) === 1,
    raw: Number(row.raw) === 1,
  }));
}
