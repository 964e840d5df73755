// Parameters of the files API that Grape validates beyond types: the `file_path` validator, the
// blame range, and the decoded content.
import { ParamError } from '../../platform/errors.js';
import { isValidFilePath } from './tree-entries.js';

export function checkFilePath(path: string): string {
  if (!isValidFilePath(path)) throw new ParamError('file_path should be a valid file path');
  return path;
}

/** `content` as bytes: base64 is decoded leniently (Ruby's Base64.decode64), text kept as UTF-8. */
export function decodeContent(content: string, encoding: string | undefined): Buffer {
  return encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
}

function positiveLine(input: Record<string, unknown>, key: 'start' | 'end'): number | null {
  const nested = input.range && typeof input.range === 'object' ? (input.range as Record<string, unknown>)[key] : undefined;
  const raw = input[`range[${key}]`] ?? nested;
  if (raw === undefined || raw === null || raw === '') return null;
  const value = typeof raw === 'number' ? raw : /^-?\d+$/.test(String(raw).trim()) ? Number(String(raw).trim()) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new ParamError(`range[${key}] is invalid`);
  if (value <= 0) throw new ParamError(`range[${key}] does not have a valid value`);
  return value;
}

/** The optional `range[start]`/`range[end]` of a blame: both or neither. */
export function blameRange(input: Record<string, unknown>): { start: number; end: number } | undefined {
  const given = input.range !== undefined || input['range[start]'] !== undefined || input['range[end]'] !== undefined;
  if (!given) return undefined;
  const start = positiveLine(input, 'start');
  const end = positiveLine(input, 'end');
  const missing = [start === null ? 'range[start] is missing' : null, end === null ? 'range[end] is missing' : null].filter(Boolean);
  if (missing.length > 0) throw new ParamError(missing.join(', '));
  return { start: start!, end: end! };
}

/** Header values as Rack sends them: UTF-8 bytes (Node refuses characters beyond Latin-1 in a string). */
export function headerValue(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** GitLab's set_http_headers: `X-Gitlab-<Capitalized-Key>` for every field. */
export function gitlabHeaders(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [`X-Gitlab-${key.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('-')}`, headerValue(value)]),
  );
}
