// project_create, project_update, project_rename, project_transfer and project_destroy (GitLab's
// ProjectBuilder with the deprecated owner that SystemHooksService still sends).
import type { ProjectSnapshot, SystemEvent } from '../../platform/domain-events.js';
import { timestamps } from './system-common.js';

type ProjectEvent = SystemEvent<'project.created' | 'project.updated' | 'project.renamed' | 'project.transferred' | 'project.destroyed'>;

const EVENT_NAMES: Record<ProjectEvent['kind'], string> = {
  'project.created': 'project_create',
  'project.updated': 'project_update',
  'project.renamed': 'project_rename',
  'project.transferred': 'project_transfer',
  'project.destroyed': 'project_destroy',
};

export function projectSystemData(event: ProjectEvent) {
  const project: ProjectSnapshot = event.project;
  return {
    event_name: EVENT_NAMES[event.kind],
    ...timestamps(project),
    name: project.name,
    path: project.path,
    path_with_namespace: project.fullPath,
    project_id: project.id,
    project_namespace_id: project.namespaceId,
    owners: project.owners.map((owner) => ({ name: owner.name, email: owner.email })),
    project_visibility: project.visibility,
    owner_name: project.owner.name,
    owner_email: project.owner.email,
    ...('oldFullPath' in event ? { old_path_with_namespace: event.oldFullPath } : {}),
  };
}
