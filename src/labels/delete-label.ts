import type { Deps } from '../platform/deps.js';
import type { LabelRow } from './entities.js';

/** Remove a label; its links to issues go with it, its history events keep a null label (GitLab's Labels::DestroyService). */
export async function deleteLabel(deps: Deps, label: LabelRow): Promise<void> {
  await deps.db.deleteFrom('labels').where('id', '=', label.id).execute();
}
