// The storage move entities (spec "Group repository storage move"; GitLab's REST API documentation,
// its BasicRepositoryStorageMove and the group and snippet entities built on it), fields explicit.
import { isoTime } from '../platform/clock.js';
import { groupWebUrl } from '../accounts/api.js';
import { humanState } from './move-states.js';
import type { MoveWithGroup } from './finder.js';
import type { MoveRow } from './move-kinds.js';

/** GitLab's BasicRepositoryStorageMove: what every kind shows before its container. */
export function basicStorageMoveEntity(move: MoveRow) {
  return {
    id: move.id,
    created_at: isoTime(move.created_at),
    state: humanState(move.state),
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
  };
}

export function storageMoveEntity(baseUrl: string, move: MoveWithGroup) {
  return {
    ...basicStorageMoveEntity(move),
    group: {
      id: move.container_id,
      web_url: groupWebUrl(baseUrl, move.group_full_path),
      name: move.group_name,
    },
  };
}
