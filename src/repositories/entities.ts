// The storage move entity (spec "Group repository storage move"; GitLab's REST API documentation), fields explicit.
import { isoTime } from '../platform/clock.js';
import { groupWebUrl } from '../accounts/api.js';
import { humanState } from './move-states.js';
import type { MoveWithGroup } from './finder.js';

export function storageMoveEntity(baseUrl: string, move: MoveWithGroup) {
  return {
    id: Number(move.id),
    created_at: isoTime(move.created_at),
    state: humanState(move.state),
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
    group: {
      id: Number(move.group_id),
      web_url: groupWebUrl(baseUrl, move.group_full_path),
      name: move.group_name,
    },
  };
}
