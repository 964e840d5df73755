// GitLab's BroadcastMessage entity.
import { isoTime } from '../platform/clock.js';
import { accessLevelsOf, isActive, type BroadcastMessageRow } from './messages.js';

export function broadcastMessageEntity(row: BroadcastMessageRow, now: number) {
  return {
    id: Number(row.id),
    message: row.message,
    starts_at: isoTime(Number(row.starts_at)),
    ends_at: isoTime(Number(row.ends_at)),
    color: row.color,
    font: row.font,
    target_access_levels: accessLevelsOf(row),
    target_path: row.target_path,
    broadcast_type: row.broadcast_type,
    dismissable: Boolean(row.dismissable),
    active: isActive(row, now),
    theme: row.theme,
  };
}
