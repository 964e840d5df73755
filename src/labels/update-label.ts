import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import { isUniqueViolation } from '../platform/db/database.js';
import type { LabelRow } from './entities.js';
import { validateLabelFields } from './validate-label.js';

export interface UpdateLabelInput {
  newName?: string;
  color?: string;
  description?: string | null;
  /** A number sets the project's priority, `null` removes it; absent leaves it. Project labels only. */
  priority?: number | null;
  archived?: boolean;
}

/** Change a label (GitLab's Labels::UpdateService): a new title must be free among the owner's labels. */
export async function updateLabel(deps: Deps, label: LabelRow, input: UpdateLabelInput): Promise<LabelRow> {
  const fields = validateLabelFields({ title: input.newName, color: input.color, description: input.description });
  const changes: Partial<Omit<LabelRow, 'id'>> = { updated_at: deps.clock.now() };
  if (fields.title !== undefined) changes.title = fields.title;
  if (fields.color !== undefined) changes.color = fields.color;
  if (fields.description !== undefined) changes.description = fields.description;
  if (input.priority !== undefined && label.project_id !== null) changes.priority = input.priority;
  if (input.archived !== undefined) changes.archived = input.archived ? 1 : 0;
  try {
    const updated = await deps.db.updateTable('labels').set(changes).where('id', '=', label.id).returningAll().executeTakeFirst();
    if (!updated) throw new RecordNotFoundError();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ title: ['has already been taken'] });
    throw error;
  }
}
