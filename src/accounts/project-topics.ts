// A project's topics linked to the instance's topics when it is created or its `topics` change: the
// topics feature makes and links them (accountHooks' linkTopics) and the project keeps the names as
// the topics spell them ("Ruby" listed where "ruby" exists becomes "ruby", as GitLab does).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { accountHooks } from './hooks.js';

export async function linkProjectTopics(deps: Deps, executor: Executor, project: ProjectRow): Promise<ProjectRow> {
  const link = accountHooks(deps).linkTopics;
  if (!link) return project;
  let names: string[] = [];
  try {
    const parsed: unknown = JSON.parse(project.topics);
    if (Array.isArray(parsed)) names = parsed.map(String);
  } catch {
    names = [];
  }
  const topics = JSON.stringify(await link(executor, Number(project.id), names));
  if (topics === project.topics) return project;
  return executor.updateTable('projects').set({ topics }).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
}
