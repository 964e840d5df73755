// The payload of a system event as system hooks receive it (doc/administration/system_hooks.md): built
// from the snapshot the event carries (platform/domain-events.ts), so it reads nothing and describes
// what was true when the event happened, even once the user, group, project or membership is gone.
import type { SystemEvent, SystemEventKind } from '../../platform/domain-events.js';
import { groupSystemData } from './system-group.js';
import { memberSystemData } from './system-member.js';
import { projectSystemData } from './system-project.js';
import { userSystemData } from './system-user.js';

type Builder<K extends SystemEventKind> = (event: SystemEvent<K>) => Record<string, unknown>;

/** One builder per system event kind; a new kind fails to compile until it has one. */
const BUILDERS: { [K in SystemEventKind]: Builder<K> } = {
  'project.created': projectSystemData,
  'project.updated': projectSystemData,
  'project.renamed': projectSystemData,
  'project.transferred': projectSystemData,
  'project.destroyed': projectSystemData,
  'user.created': userSystemData,
  'user.destroyed': userSystemData,
  'user.failed_login': userSystemData,
  'group.created': groupSystemData,
  'group.renamed': groupSystemData,
  'group.destroyed': groupSystemData,
  'member.added': memberSystemData,
  'member.updated': memberSystemData,
  'member.removed': memberSystemData,
};

export const SYSTEM_EVENT_KINDS = Object.keys(BUILDERS) as SystemEventKind[];

export function isSystemEvent(event: { kind: string }): event is SystemEvent {
  return Object.hasOwn(BUILDERS, event.kind);
}

/**
 * The hook's request: `System Hook` whatever the event, logged under the `system_hooks` trigger. Null
 * for an event this version cannot describe (an unknown kind, or one queued without its snapshot).
 */
export function systemHookData(event: SystemEvent): { event: string; trigger: string; data: Record<string, unknown> } | null {
  // The kind's first word names its snapshot (`project.renamed` carries `project`).
  if (!isSystemEvent(event) || !(event.kind.split('.')[0] in event)) return null;
  const build = BUILDERS[event.kind] as Builder<SystemEventKind>;
  return { event: 'System Hook', trigger: 'system_hooks', data: build(event) };
}
