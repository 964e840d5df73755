// Settings GitLab documents for projects and groups that Kiln keeps in one JSON column per row
// (`settings`, migration 20261228T2021): a declarative table of name → parameter rule, GitLab's
// default and the entity's JSON type. A client's value is checked (a wrong one is a 400 naming the
// attribute), stored as GitLab's type and shown back; an attribute never set shows GitLab's default.
// Which of them act on something in Kiln, and which are accepted but inert, is in docs/settings.md.
import { ParamError, ValidationError } from '../platform/errors.js';
import { p, parseParams, type ParamRule } from '../platform/http/params.js';
import { parseStored } from '../platform/db/stored-json.js';

export interface StoredSetting {
  rule: ParamRule;
  /** What GitLab shows until a client sets it. */
  fallback: unknown;
  /** The entity's JSON schema of the value (OpenAPI). */
  schema: Record<string, unknown>;
  /** A model validation beyond the type (GitLab's numericality): the message, or undefined when valid. */
  check?: (value: any) => string | undefined;
  /** Attributes of a hash parameter (GitLab's `*_attributes`), merged into what was stored before. */
  attributes?: Record<string, ParamRule>;
  /** The name the entity shows it under, when it differs from the parameter's (`container_expiration_policy`). */
  shownAs?: string;
}

/** A deprecated parameter GitLab still takes, written into another setting (and shown derived from it). */
export interface SettingAlias {
  rule: ParamRule;
  of: string;
  toStored: (value: any) => unknown;
  shown: (stored: any) => unknown;
}

export type SettingsTable = Readonly<Record<string, StoredSetting>>;
export type AliasTable = Readonly<Record<string, SettingAlias>>;

const nullable = (type: string) => ({ type: [type, 'null'] });

/** The JSON schema of a hash attribute, from its default: nullable, since a client may clear it. */
function valueSchema(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', items: { type: 'object', additionalProperties: true } };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return nullable('integer');
  return nullable('string');
}

export const setting = {
  flag: (fallback: boolean | null): StoredSetting => ({ rule: p.boolean.optional(), fallback, schema: fallback === null ? nullable('boolean') : { type: 'boolean' } }),
  choice: (values: readonly string[], fallback: string): StoredSetting => ({ rule: p.string.optional({ values }), fallback, schema: { type: 'string' } }),
  text: (fallback: string | null, max = 255): StoredSetting => ({ rule: p.string.optional({ max }), fallback, schema: fallback === null ? nullable('string') : { type: 'string' } }),
  integer: (fallback: number | null, min?: number, max?: number): StoredSetting => ({
    rule: p.integer.optional(),
    fallback,
    schema: fallback === null ? nullable('integer') : { type: 'integer' },
    check: (value: number) =>
      min !== undefined && value < min ? `must be greater than or equal to ${min}` : max !== undefined && value > max ? `must be less than or equal to ${max}` : undefined,
  }),
  strings: (fallback: string[]): StoredSetting => ({ rule: p.strings.optional(), fallback, schema: { type: 'array', items: { type: 'string' } } }),
  /** A hash parameter of typed attributes, merged into the stored hash (GitLab's accepts_nested_attributes_for). */
  hash: (attributes: Record<string, ParamRule>, fallback: Record<string, unknown>, shownAs?: string): StoredSetting => ({
    rule: p.json.optional(), fallback, attributes, shownAs,
    schema: { type: 'object', properties: Object.fromEntries(Object.entries(fallback).map(([name, value]) => [name, valueSchema(value)])), required: Object.keys(fallback) },
  }),
};

/** A deprecated boolean standing for a feature's access level (`wiki_enabled` → `wiki_access_level`). */
export function levelAlias(of: string): SettingAlias {
  return { rule: p.boolean.optional(), of, toStored: (on: boolean) => (on ? 'enabled' : 'disabled'), shown: (level: string) => level !== 'disabled' };
}

/** A deprecated boolean that is another's negation or copy (`emails_disabled`, `public_builds`). */
export function flagAlias(of: string, negated: boolean): SettingAlias {
  return { rule: p.boolean.optional(), of, toStored: (on: boolean) => (negated ? !on : on), shown: (value: boolean | null) => (value === null ? null : negated ? !value : value) };
}

/** The route parameters of a table and its aliases. */
export function settingParams(table: SettingsTable, aliases: AliasTable = {}): Record<string, ParamRule> {
  return {
    ...Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, entry.rule])),
    ...Object.fromEntries(Object.entries(aliases).map(([name, alias]) => [name, alias.rule])),
  };
}

export { parseStored };

function mergedHash(name: string, entry: StoredSetting, raw: unknown, before: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ParamError(`${name} is invalid`);
  let parsed: Record<string, unknown>;
  try {
    parsed = parseParams(raw as Record<string, unknown>, entry.attributes!);
  } catch (error) {
    // Name the attribute inside the hash as Grape does: `container_expiration_policy_attributes[keep_n] is invalid`.
    if (error instanceof ParamError) throw new ParamError(error.message.replace(/(^|, )(\w+) /g, `$1${name}[$2] `));
    throw error;
  }
  const base = before && typeof before === 'object' ? (before as Record<string, unknown>) : (entry.fallback as Record<string, unknown>);
  return { ...base, ...Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) };
}

/**
 * The row's new `settings` JSON from parsed parameters, or undefined when nothing changes (applying the
 * same configuration again writes nothing). Keys are sorted, so equal settings are equal text.
 */
export function settingChanges(table: SettingsTable, aliases: AliasTable, params: Record<string, unknown>, current: string | null | undefined): string | undefined {
  const stored = parseStored(current);
  const next: Record<string, unknown> = { ...stored };
  const errors: Record<string, string[]> = {};
  for (const [name, alias] of Object.entries(aliases)) {
    // The current name wins over its deprecated alias when a client sends both.
    if (params[name] !== undefined && params[alias.of] === undefined) next[alias.of] = alias.toStored(params[name]);
  }
  for (const [name, entry] of Object.entries(table)) {
    const value = params[name];
    if (value === undefined) continue;
    if (entry.attributes) {
      next[name] = mergedHash(name, entry, value, stored[name]);
      continue;
    }
    const problem = entry.check?.(value);
    if (problem) errors[name] = [problem];
    else next[name] = value;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const text = JSON.stringify(Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return text === JSON.stringify(Object.fromEntries(Object.entries(stored).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))) ? undefined : text;
}

/** Every setting of the table as the entity shows it: stored, or GitLab's default; aliases derived. */
export function shownSettings(table: SettingsTable, aliases: AliasTable, json: string | null | undefined): Record<string, unknown> {
  const stored = parseStored(json);
  const shown: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(table)) shown[entry.shownAs ?? name] = stored[name] ?? entry.fallback;
  for (const [name, alias] of Object.entries(aliases)) shown[name] = alias.shown(stored[alias.of] ?? table[alias.of].fallback);
  return shown;
}

/** The entity schema of the shown settings (the OpenAPI document describes them). */
export function shownSchemas(table: SettingsTable, aliases: AliasTable): Record<string, Record<string, unknown>> {
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const [name, entry] of Object.entries(table)) schemas[entry.shownAs ?? name] = entry.schema;
  for (const [name, alias] of Object.entries(aliases)) schemas[name] = table[alias.of].schema.type === 'string' ? { type: 'boolean' } : table[alias.of].schema;
  return schemas;
}

/** Whether `changes` (besides updated_at) would move any column of `row`. */
export function changesAnything(row: object, changes: Record<string, unknown>): boolean {
  const current = row as Record<string, unknown>;
  return Object.keys(changes).some((column) => column !== 'updated_at' && changes[column] !== current[column]);
}
