// Broadcast messages (GitLab's BroadcastMessage): what a message may hold, the checks the API and the
// admin page share, and the writes. The Markdown is rendered and sanitised once, when it is written,
// and kept beside it, so pages show the stored HTML without rendering it for every visitor.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { BroadcastMessagesTable } from '../platform/db/tables/broadcast-messages.js';
import { ParamError, RecordNotFoundError, ValidationError } from '../platform/errors.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { BROADCAST_TABLES, messagesEndingAfter } from './current-queries.js';

export type BroadcastMessageRow = Selectable<BroadcastMessagesTable>;

export const BROADCAST_TYPES = ['banner', 'notification'] as const;
export const THEMES = ['indigo', 'light-indigo', 'blue', 'light-blue', 'green', 'light-green', 'red', 'light-red', 'dark', 'light'] as const;
/** Guest, Reporter, Developer, Maintainer, Owner (BroadcastMessage::ALLOWED_TARGET_ACCESS_LEVELS). */
export const TARGET_ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;

const DEFAULT_COLOR = '#E75E40';
const DEFAULT_FONT = '#FFFFFF';
const HOUR_MS = 3_600_000;
const MAX_MESSAGE = 10_000;
const MAX_TARGET_PATH = 255;

/** What a create or update names (strings as sent; the checks below turn them into values). */
export interface BroadcastMessageInput {
  message?: string;
  starts_at?: string;
  ends_at?: string;
  color?: string;
  font?: string;
  theme?: string;
  broadcast_type?: string;
  dismissable?: boolean;
  target_path?: string;
  target_access_levels?: unknown;
}

/** A date-time as Grape's DateTime takes it; one without a zone is UTC, as GitLab's default zone. */
function parseTime(name: string, value: string): number {
  const text = value.trim();
  const match = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  const ms = match ? Date.parse(match[1] || text.length === 10 ? text : `${text}Z`) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

/** `[10, 30]`, `"10,30"` or `["10", "30"]`, each one of the allowed levels (Grape's `values`). */
export function parseAccessLevels(value: unknown): number[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').filter((item) => item.trim() !== '') : value === null ? [] : [value];
  const levels = items.map((item) => (typeof item === 'number' ? item : typeof item === 'string' && /^\s*\d+\s*$/.test(item) ? Number(item) : Number.NaN));
  if (levels.some((level) => !(TARGET_ACCESS_LEVELS as readonly number[]).includes(level))) throw new ParamError('target_access_levels does not have a valid value');
  return [...new Set(levels)];
}

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

type Changes = Partial<Omit<BroadcastMessageRow, 'id' | 'created_at' | 'updated_at' | 'message_html'>>;

/** The input's values, checked: Grape's refusals as ParamError, the model's as ValidationError. */
function checked(input: BroadcastMessageInput): Changes {
  if (input.theme !== undefined && !(THEMES as readonly string[]).includes(input.theme)) throw new ParamError('theme does not have a valid value');
  if (input.broadcast_type !== undefined && !(BROADCAST_TYPES as readonly string[]).includes(input.broadcast_type)) throw new ParamError('broadcast_type does not have a valid value');
  const changes: Changes = {};
  if (input.starts_at !== undefined) changes.starts_at = parseTime('starts_at', input.starts_at);
  if (input.ends_at !== undefined) changes.ends_at = parseTime('ends_at', input.ends_at);
  if (input.target_access_levels !== undefined) changes.target_access_levels = JSON.stringify(parseAccessLevels(input.target_access_levels));
  const errors: Record<string, string[]> = {};
  if (input.message !== undefined) {
    if (input.message.trim() === '') errors.message = ["can't be blank"];
    else if (input.message.length > MAX_MESSAGE) errors.message = [`is too long (maximum is ${MAX_MESSAGE} characters)`];
    changes.message = input.message;
  }
  for (const name of ['color', 'font'] as const) {
    const value = input[name];
    if (value === undefined) continue;
    if (value !== '' && !COLOR.test(value)) errors[name] = ['must be a valid color code'];
    changes[name] = value === '' ? null : value;
  }
  if (input.target_path !== undefined) {
    if (input.target_path.length > MAX_TARGET_PATH) errors.target_path = [`is too long (maximum is ${MAX_TARGET_PATH} characters)`];
    changes.target_path = input.target_path.trim();
  }
  if (input.theme !== undefined) changes.theme = input.theme;
  if (input.broadcast_type !== undefined) changes.broadcast_type = input.broadcast_type;
  if (input.dismissable !== undefined) changes.dismissable = input.dismissable ? 1 : 0;
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return changes;
}

function checkPeriod(startsAt: number, endsAt: number): void {
  if (endsAt < startsAt) throw new ValidationError({ ends_at: ['must be after the start time'] });
}

/** GitLab's broadcast_message pipeline: Markdown without references, sanitised; one paragraph unwrapped. */
async function renderMessage(deps: Deps, message: string): Promise<string> {
  return renderGitlabMarkdown(deps, message, { gfm: false });
}

export async function createBroadcastMessage(deps: Deps, input: BroadcastMessageInput): Promise<BroadcastMessageRow> {
  if (input.message === undefined) throw new ParamError('message is missing');
  const values = checked(input);
  const now = deps.clock.now();
  const startsAt = values.starts_at ?? now;
  const endsAt = values.ends_at ?? now + HOUR_MS;
  checkPeriod(startsAt, endsAt);
  return deps.db
    .insertInto('broadcast_messages')
    .values({
      message: values.message!, message_html: await renderMessage(deps, values.message!), starts_at: startsAt, ends_at: endsAt,
      color: values.color === undefined ? DEFAULT_COLOR : values.color, font: values.font === undefined ? DEFAULT_FONT : values.font,
      theme: values.theme ?? 'indigo', broadcast_type: values.broadcast_type ?? 'banner', dismissable: values.dismissable ?? 0,
      target_path: values.target_path ?? '', target_access_levels: values.target_access_levels ?? '[]', created_at: now, updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findBroadcastMessage(deps: Deps, id: number): Promise<BroadcastMessageRow> {
  const row = Number.isSafeInteger(id) ? await deps.db.selectFrom('broadcast_messages').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new RecordNotFoundError();
  return row;
}

export async function updateBroadcastMessage(deps: Deps, id: number, input: BroadcastMessageInput): Promise<BroadcastMessageRow> {
  const current = await findBroadcastMessage(deps, id);
  const values = checked(input);
  checkPeriod(values.starts_at ?? Number(current.starts_at), values.ends_at ?? Number(current.ends_at));
  const html = values.message === undefined ? {} : { message_html: await renderMessage(deps, values.message) };
  const updated = await deps.db.updateTable('broadcast_messages').set({ ...values, ...html, updated_at: deps.clock.now() }).where('id', '=', id).returningAll().executeTakeFirst();
  if (!updated) throw new RecordNotFoundError();
  return updated;
}

export async function deleteBroadcastMessage(deps: Deps, id: number): Promise<void> {
  const deleted = await deps.db.deleteFrom('broadcast_messages').where('id', '=', id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new RecordNotFoundError();
}

/** Every message, newest first (the list of the API and the admin page). */
export function broadcastMessagesQuery(deps: Deps) {
  return deps.db.selectFrom('broadcast_messages').selectAll().orderBy('id', 'desc');
}

const CURRENT_LIMIT = 50;
const MINUTE_MS = 60_000;

/**
 * The messages shown now, oldest first (BroadcastMessage.current), through the row cache as GitLab
 * caches them: the read names the start of the current minute rather than the instant, so it is the
 * same read for a minute and kept until a message is written (on SQLite, by this process or another:
 * platform/db/reads.ts; on PostgreSQL it is one statement, as every instance look-up there); the
 * messages already ended or not yet started at `now` are dropped here.
 */
export async function currentBroadcastMessages(deps: Deps, now: number): Promise<readonly BroadcastMessageRow[]> {
  const rows = await deps.reads.cached<BroadcastMessageRow>(messagesEndingAfter(now - (now % MINUTE_MS), CURRENT_LIMIT * 2), BROADCAST_TABLES);
  return rows.filter((row) => isActive(row, now)).slice(0, CURRENT_LIMIT);
}

export function isActive(row: BroadcastMessageRow, now: number): boolean {
  return Number(row.starts_at) <= now && now <= Number(row.ends_at);
}

export function accessLevelsOf(row: BroadcastMessageRow): number[] {
  try {
    const levels: unknown = JSON.parse(row.target_access_levels);
    return Array.isArray(levels) ? levels.filter((level): level is number => typeof level === 'number') : [];
  } catch {
    return [];
  }
}
