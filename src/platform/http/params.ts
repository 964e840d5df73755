// Parameters as Grape sees them: path ∪ query ∪ form ∪ JSON with the path winning (python-gitlab sends
// `?id=<built-in function id>`), strings coerced, unknown keys ignored, failures in Grape's words.
// Text lengths are GitLab's model limits, checked here once for every route (see TEXT_LIMITS).
import type { FastifyRequest } from 'fastify';
import { ParamError, ValidationError } from '../errors.js';

export type ParamType = 'string' | 'integer' | 'boolean' | 'date' | 'string[]' | 'integer[]' | 'json';

export interface ParamRule<T = unknown, R extends boolean = boolean> {
  type: ParamType;
  required: R;
  values?: readonly string[];
  exceptValues?: readonly unknown[];
  allowBlank?: boolean;
  /** GitLab's `absence` validator: the parameter must not be sent (server-computed fields). */
  absentMessage?: string;
  /** The longest accepted string in characters; strings named in TEXT_LIMITS have theirs by default. */
  max?: number;
  description?: string;
  default?: T;
  __type?: T;
}

type RuleOptions<T> = Omit<ParamRule<T>, 'type' | 'required' | '__type'>;

function rule<T>(type: ParamType) {
  return {
    optional: (options: RuleOptions<T> = {}): ParamRule<T, false> => ({ type, required: false, ...options }),
    required: (options: RuleOptions<T> = {}): ParamRule<T, true> => ({ type, required: true, ...options }),
  };
}

export const p = {
  string: rule<string>('string'),
  integer: rule<number>('integer'),
  boolean: rule<boolean>('boolean'),
  /** A `YYYY-MM-DD` date, kept as that string. */
  date: rule<string>('date'),
  strings: rule<string[]>('string[]'),
  /** GitLab's `Array[Integer]`: a JSON array, repeated `name[]=` keys, or a comma-separated string. */
  integers: rule<number[]>('integer[]'),
  json: rule<unknown>('json'),
  absent: (message: string): ParamRule<never, false> => ({ type: 'string', required: false, absentMessage: message }),
};

export type ParamSchema = Record<string, ParamRule>;

export type Parsed<S extends ParamSchema> = {
  [K in keyof S]: S[K] extends ParamRule<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

/** The merged parameter bag of a request. Body keys override the query, path keys override both. */
export function mergedParams(request: FastifyRequest): Record<string, unknown> {
  // A raw body (a job log's bytes, read as a Buffer) holds no parameters: spread, each byte would
  // become a key, a million of them for a 1 MiB log append.
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) && !(request.body instanceof Uint8Array) ? (request.body as Record<string, unknown>) : {};
  return { ...(request.query as Record<string, unknown>), ...body, ...(request.params as Record<string, unknown>) };
}

const TRUE = /^(true|t|yes|y|on|1)$/i;
const FALSE = /^(false|f|no|n|off|0)$/i;

function coerce(type: ParamType, value: unknown): { ok: true; value: unknown } | { ok: false } {
  switch (type) {
    case 'string':
      // No database stores a NUL in text (PostgreSQL refuses it): a 400 naming the parameter, not a 500.
      if (typeof value === 'string') return value.includes('\0') ? { ok: false } : { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return { ok: false };
    case 'integer': {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return { ok: true, value: Number(value.trim()) };
      return { ok: false };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (typeof value === 'number' && (value === 0 || value === 1)) return { ok: true, value: value === 1 };
      if (typeof value === 'string' && TRUE.test(value)) return { ok: true, value: true };
      if (typeof value === 'string' && FALSE.test(value)) return { ok: true, value: false };
      return { ok: false };
    case 'date': {
      if (typeof value !== 'string') return { ok: false };
      const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
      if (!match) return { ok: false };
      const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`);
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${match[1]}-${match[2]}-${match[3]}`) return { ok: false };
      return { ok: true, value: `${match[1]}-${match[2]}-${match[3]}` };
    }
    case 'string[]':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string' && !item.includes('\0'))) return { ok: true, value };
      if (typeof value === 'string' && !value.includes('\0')) return { ok: true, value: value === '' ? [] : value.split(',') };
      return { ok: false };
    case 'integer[]': {
      const items = Array.isArray(value) ? value : typeof value === 'string' ? (value === '' ? [] : value.split(',')) : [value];
      const numbers: number[] = [];
      for (const item of items) {
        const one = coerce('integer', item);
        if (!one.ok) return { ok: false };
        numbers.push(one.value as number);
      }
      return { ok: true, value: numbers };
    }
    case 'json':
      return { ok: true, value };
  }
}

/**
 * GitLab's length validations for text fields, by parameter name, where a route declares no `max`:
 * titles, names and paths 255 (Issuable::TITLE_LENGTH_MAX, Namespace and Project names and paths),
 * descriptions 1 MiB (Issuable::DESCRIPTION_LENGTH_MAX), note bodies 1,000,000 (Note, reported as
 * `note`, the attribute GitLab validates). Over-long input is the model's 400,
 * `{"message": {"title": ["is too long (maximum is 255 characters)"]}}`, after Grape's own checks.
 */
export const TEXT_LIMITS: Readonly<Record<string, { max: number; attribute?: string }>> = {
  title: { max: 255 },
  name: { max: 255 },
  path: { max: 255 },
  description: { max: 1_048_576 },
  body: { max: 1_000_000, attribute: 'note' },
};

/** Characters as Ruby counts them (code points), counted only when the UTF-16 length is over `max`. */
export function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let characters = 0;
  for (const _ of value) {
    characters += 1;
    if (characters > max) return true;
  }
  return false;
}

/** Rails' `too_long` message, `%{count}` pluralised. */
export function tooLongMessage(max: number): string {
  return `is too long (maximum is ${max} character${max === 1 ? '' : 's'})`;
}

/**
 * A model's length validation (Rails' `length: { maximum: }`) inside an action, so pages and the API
 * refuse alike: adds the message to `errors` under `attribute` when `value` is over `max` characters.
 */
export function checkLength(errors: Record<string, string[]>, attribute: string, value: string | undefined | null, max: number): void {
  if (typeof value === 'string' && longerThan(value, max)) errors[attribute] = [...(errors[attribute] ?? []), tooLongMessage(max)];
}

function isBlank(value: unknown): boolean {
  return value === '' || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** Validate and coerce; every failure is collected and reported together, as Grape does. */
export function parseParams<S extends ParamSchema>(input: Record<string, unknown>, schema: S): Parsed<S> {
  const problems: string[] = [];
  const tooLong: Record<string, string[]> = {};
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    // Rails-style `name[]` keys (python-gitlab's array filters in query strings) name the same array.
    const raw = input[name] ?? (spec.type === 'string[]' || spec.type === 'integer[]' ? input[`${name}[]`] : undefined);
    if (spec.absentMessage) {
      if (raw !== undefined) problems.push(`${name} ${spec.absentMessage}`);
      continue;
    }
    if (raw === undefined || raw === null) {
      if (spec.required) problems.push(`${name} is missing`);
      else if (spec.default !== undefined) result[name] = spec.default;
      continue;
    }
    if (spec.allowBlank === false && isBlank(raw)) {
      problems.push(`${name} is empty`);
      continue;
    }
    const coerced = coerce(spec.type, raw);
    if (!coerced.ok) {
      problems.push(`${name} is invalid`);
      continue;
    }
    if (spec.values && !spec.values.includes(coerced.value as string)) {
      problems.push(`${name} does not have a valid value`);
      continue;
    }
    if (spec.exceptValues?.includes(coerced.value)) {
      problems.push(`${name} has a value not allowed`);
      continue;
    }
    const limit = spec.type === 'string' ? (spec.max !== undefined ? { max: spec.max } : TEXT_LIMITS[name]) : undefined;
    if (limit && longerThan(coerced.value as string, limit.max)) tooLong[limit.attribute ?? name] = [tooLongMessage(limit.max)];
    result[name] = coerced.value;
  }
  if (problems.length > 0) throw new ParamError(problems.join(', '));
  if (Object.keys(tooLong).length > 0) throw new ValidationError(tooLong);
  return result as Parsed<S>;
}

/** Grape's mutually_exclusive check, with the message chosen by the caller. */
export function rejectTogether(input: Record<string, unknown>, names: string[], message = `${names.join(', ')} are mutually exclusive`): void {
  if (names.filter((name) => input[name] !== undefined).length > 1) throw new ParamError(message);
}

/** Grape's at_least_one_of, in its words. */
export function requireOneOf(input: Record<string, unknown>, names: string[]): void {
  if (names.some((name) => input[name] !== undefined)) return;
  throw new ParamError(`${names.join(', ')} are missing, at least one parameter must be provided`);
}

/** Grape's all_or_none_of, in its words. */
export function requireAllOrNone(input: Record<string, unknown>, names: string[]): void {
  const given = names.filter((name) => input[name] !== undefined && input[name] !== null && input[name] !== '');
  if (given.length === 0 || given.length === names.length) return;
  throw new ParamError(`${names.join(', ')} provide all or none of parameters`);
}
