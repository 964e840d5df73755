// user_create, user_destroy and user_failed_login (GitLab's UserBuilder).
import type { SystemEvent } from '../../platform/domain-events.js';
import { timestamps } from './system-common.js';

type UserEvent = SystemEvent<'user.created' | 'user.destroyed' | 'user.failed_login'>;

const EVENT_NAMES: Record<UserEvent['kind'], string> = {
  'user.created': 'user_create',
  'user.destroyed': 'user_destroy',
  'user.failed_login': 'user_failed_login',
};

export function userSystemData(event: UserEvent) {
  const { user } = event;
  return {
    ...timestamps(user),
    event_name: EVENT_NAMES[event.kind],
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
    // A refused sign-in says why: the user's state (`blocked`).
    ...(event.kind === 'user.failed_login' ? { state: user.state } : {}),
  };
}
