// The labels an edit added to an issue or a merge request (GitLab's relabeled_* notifications): the
// ids the update event recorded before and after, and their names when the message is composed.
import type { Deps } from '../platform/deps.js';
import { labelsByIds } from '../labels/api.js';

/** The label ids in `current` that `previous` lacked (update events record `labels` as id lists). */
export function addedLabelIds(previous: Record<string, unknown> | undefined, current: Record<string, unknown> | undefined): number[] {
  const ids = (values: Record<string, unknown> | undefined) => (Array.isArray(values?.labels) ? values.labels.map(Number) : []);
  const before = new Set(ids(previous));
  return ids(current).filter((id) => !before.has(id));
}

/** Names by title order; a label deleted since is left out. */
export async function addedLabelNames(deps: Deps, ids: number[] | undefined): Promise<string[]> {
  if (!ids?.length) return [];
  return (await labelsByIds(deps, ids)).map((label) => label.title).sort((a, b) => a.localeCompare(b));
}
