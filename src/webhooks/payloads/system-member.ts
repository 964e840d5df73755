// Memberships: user_add_to_team, user_update_for_team, user_remove_from_team for projects (GitLab's
// ProjectMemberBuilder) and user_add_to_group, user_update_for_group, user_remove_from_group for
// groups (GroupMemberBuilder).
import type { SystemEvent } from '../../platform/domain-events.js';
import { expiresAt, humanAccess, timestamps } from './system-common.js';

type MemberEvent = SystemEvent<'member.added' | 'member.updated' | 'member.removed'>;

const TEAM_EVENTS: Record<MemberEvent['kind'], string> = {
  'member.added': 'user_add_to_team',
  'member.updated': 'user_update_for_team',
  'member.removed': 'user_remove_from_team',
};

const GROUP_EVENTS: Record<MemberEvent['kind'], string> = {
  'member.added': 'user_add_to_group',
  'member.updated': 'user_update_for_group',
  'member.removed': 'user_remove_from_group',
};

export function memberSystemData(event: MemberEvent) {
  const { member } = event;
  const { source, user } = member;
  const userData = { user_username: user.username, user_name: user.name, user_email: user.email, user_id: user.id };
  if (source.type === 'Project') {
    return {
      ...timestamps(member),
      project_name: source.name,
      project_path: source.path,
      project_path_with_namespace: source.fullPath,
      project_id: source.id,
      ...userData,
      access_level: humanAccess(member.accessLevel),
      project_visibility: source.visibility,
      event_name: TEAM_EVENTS[event.kind],
    };
  }
  return {
    ...timestamps(member),
    group_name: source.name,
    group_path: source.path,
    group_id: source.id,
    ...userData,
    group_access: humanAccess(member.accessLevel),
    expires_at: expiresAt(member.expiresAt),
    event_name: GROUP_EVENTS[event.kind],
  };
}
