// PUT /projects/:id/transfer (GitLab's Projects::TransferService): the project moves into another
// namespace the caller may create projects in (a personal one only while the caller is under their
// projects_limit); its old path keeps redirecting, and its visibility is lowered to what the new
// group allows.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { canOnGroup } from '../platform/auth/policies/index.js';
import { groupAccessLevel, type NamespaceRow, type ProjectRow } from './access.js';
import { projectVisibilityProblem } from './visibility.js';
import { recordRedirect } from './record-redirects.js';
import { releasePath } from './release-redirects.js';
import { publishProjectMove } from './system-events.js';
import { reachedProjectsLimit } from './create-project.js';

const DIGITS = /^\d+$/;

/** The namespace named by id or full path, readable by the caller: "404 Namespace Not Found" otherwise. */
export async function findNamespaceFor(deps: Deps, actor: Principal, idOrPath: string): Promise<{ namespace: NamespaceRow; level: number }> {
  const query = deps.db.selectFrom('namespaces').selectAll();
  const namespace = DIGITS.test(idOrPath)
    ? await query.where('id', '=', Number(idOrPath)).executeTakeFirst()
    : await query.where('full_path_lower', '=', idOrPath.toLowerCase()).executeTakeFirst();
  if (!namespace) throw new NotFoundError('Namespace');
  const level = await groupAccessLevel(deps.reads, actor.user, namespace, deps.clock.now());
  if (!canOnGroup({ user: actor.user, level, visibility: namespace.visibility }, 'read_group')) throw new NotFoundError('Namespace');
  return { namespace, level };
}

/** GitLab's answer: the model's errors on `new_namespace`, printed as a Ruby hash. */
function transferFailed(message: string): ApiError {
  return new ApiError(400, { message: `Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}` });
}

export async function transferProject(deps: Deps, actor: Principal, access: ProjectAccess, namespaceIdOrPath: string): Promise<ProjectRow> {
  const { namespace, level } = await findNamespaceFor(deps, actor, namespaceIdOrPath);
  const project = access.project;
  if (Number(namespace.id) === Number(project.namespace_id)) throw transferFailed('Project is already in this namespace.');
  // A personal namespace takes a project only from a caller with personal projects left (GitLab's
  // UserNamespacePolicy grants transfer_projects with create_projects, which projects_limit withholds).
  const refused = !canOnGroup({ user: actor.user, level, visibility: namespace.visibility }, 'transfer_projects')
    || (namespace.kind === 'user' && (await reachedProjectsLimit(deps, actor.user.id)) !== null);
  if (refused) throw transferFailed("You don't have permission to transfer projects into that namespace.");
  const clash = await deps.db
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', namespace.id)
    .where((eb) => eb.or([eb('path', '=', project.path), eb('name', '=', project.name)]))
    .executeTakeFirst();
  if (clash) throw transferFailed('Project with same name or path in target namespace already exists');
  const fullPath = `${namespace.full_path}/${project.path}`;
  const visibility = projectVisibilityProblem(project.visibility, namespace) ? namespace.visibility : project.visibility;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      await recordRedirect(trx, { type: 'Project', id: Number(project.id) }, project.full_path, now);
      await releasePath(trx, fullPath);
      const moved = await trx
        .updateTable('projects')
        .set({ namespace_id: namespace.id, full_path: fullPath, full_path_lower: fullPath.toLowerCase(), visibility, updated_at: now })
        .where('id', '=', project.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await publishProjectMove(deps, trx, 'project.transferred', Number(project.id), actor.user.id, project.full_path);
      return moved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw transferFailed('Project with same name or path in target namespace already exists');
    throw error;
  }
}
