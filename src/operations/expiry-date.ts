// A token's expiry date as the API takes it (`expires_at`): a real calendar date written YYYY-MM-DD,
// today or later (UTC), so `--expires-at tomorrow` or `2099-13-45` never becomes a stored string.
import { UsageError } from '../platform/errors.js';

export function parseExpiryDate(raw: string, nowMs: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  const date = match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`) : null;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw.trim()) {
    throw new UsageError(`--expires-at must be a date written YYYY-MM-DD, got "${raw}"`);
  }
  const today = new Date(nowMs).toISOString().slice(0, 10);
  if (raw.trim() < today) throw new UsageError(`--expires-at must be today or later (${today}), got "${raw}"`);
  return raw.trim();
}
