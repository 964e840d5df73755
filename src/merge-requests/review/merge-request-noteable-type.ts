// A merge request as a noteable: the notes machinery's Noteable with the merge request's row.
import type { Noteable } from '../../issues/api.js';
import type { MergeRequestRow } from '../rows.js';

export type MergeRequestNoteable = Noteable & { mr: MergeRequestRow };

export function mergeRequestNoteable(mr: MergeRequestRow): MergeRequestNoteable {
  return { type: 'MergeRequest', id: Number(mr.id), projectId: Number(mr.target_project_id), iid: mr.iid, mr };
}
