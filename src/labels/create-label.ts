import type { Deps } from '../platform/deps.js';
import { ConflictError } from '../platform/errors.js';
import type { LabelRow } from './entities.js';
import { availableLabelsQuery, type LabelParent } from './finder.js';
import { validateLabelFields } from './validate-label.js';

export interface CreateLabelInput {
  title: string;
  color: string;
  description?: string | null;
  /** Project labels only. */
  priority?: number | null;
  archived?: boolean;
}

/**
 * A new project or group label. A title the parent already sees (its own or an ancestor group's
 * label) is GitLab's `409 Label already exists`; the unique index settles two racing creations.
 */
export async function createLabel(deps: Deps, parent: LabelParent, input: CreateLabelInput): Promise<LabelRow> {
  const fields = validateLabelFields({ title: input.title, color: input.color, description: input.description ?? null });
  const title = fields.title!;
  const existing = await (await availableLabelsQuery(deps, parent)).where('title', '=', title).executeTakeFirst();
  if (existing) throw new ConflictError('Label already exists');
  const now = deps.clock.now();
  const created = await deps.db
    .insertInto('labels')
    .values({
      project_id: 'project' in parent ? Number(parent.project.id) : null,
      group_id: 'group' in parent ? Number(parent.group.id) : null,
      title,
      color: fields.color!,
      description: fields.description ?? null,
      priority: 'project' in parent ? (input.priority ?? null) : null,
      archived: input.archived ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!created) throw new ConflictError('Label already exists');
  return created;
}
