// group_create, group_rename and group_destroy (GitLab's GroupBuilder).
import type { SystemEvent } from '../../platform/domain-events.js';
import { timestamps } from './system-common.js';

type GroupEvent = SystemEvent<'group.created' | 'group.renamed' | 'group.destroyed'>;

const EVENT_NAMES: Record<GroupEvent['kind'], string> = {
  'group.created': 'group_create',
  'group.renamed': 'group_rename',
  'group.destroyed': 'group_destroy',
};

export function groupSystemData(event: GroupEvent) {
  const { group } = event;
  return {
    ...timestamps(group),
    event_name: EVENT_NAMES[event.kind],
    name: group.name,
    path: group.path,
    full_path: group.fullPath,
    group_id: group.id,
    ...(event.kind === 'group.renamed' ? { old_path: event.oldPath, old_full_path: event.oldFullPath } : {}),
  };
}
