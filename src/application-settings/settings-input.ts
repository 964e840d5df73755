// What `PUT /application/settings` accepts: the declared settings under their names (and GitLab's
// legacy names), coerced in Grape's words, then checked with the model's validations. Every setting
// sent is either returned for storing or refused with a 400 naming it.
import { ParamError, ValidationError } from '../platform/errors.js';
import { p, parseParams, rejectTogether, type ParamRule, type ParamSchema } from '../platform/http/params.js';
import { INERT_SETTINGS, LEGACY_NAMES, SETTING_NAMES, SETTINGS, visibilityOf, type SettingDefinition, type SettingName } from './definitions.js';
import { UNSUPPORTED_SETTINGS } from './unsupported.js';
import { untrustedRegexp, UntrustedRegexpError } from '../platform/patterns/untrusted-regexp.js';

const MAX_ALLOWLIST_ENTRIES = 1000;
const MAX_HOST_LENGTH = 255;

function ruleFor(definition: SettingDefinition): ParamRule {
  switch (definition.kind) {
    case 'boolean':
      return p.boolean.optional();
    case 'integer':
      return p.integer.optional();
    case 'visibility':
      return p.string.optional({ values: ['private', 'internal', 'public'] });
    case 'visibilities':
      return p.strings.optional();
    // An array, or one string of entries separated by commas, semicolons or line breaks (GitLab's
    // `outbound_local_requests_allowlist_raw`).
    case 'hosts':
      return p.json.optional();
    case 'choice':
      return p.string.optional({ values: definition.choices });
    default:
      return p.string.optional({ max: 1_000_000 });
  }
}

const SCHEMA: ParamSchema = Object.fromEntries([
  ...SETTING_NAMES.map((name) => [name, ruleFor(SETTINGS[name])]),
  ...Object.entries(INERT_SETTINGS).map(([name, definition]) => [name, ruleFor(definition)]),
]);
const INERT_NAMES = Object.keys(INERT_SETTINGS);

/** Grape's at_least_one_of message over every settable name. */
const AT_LEAST_ONE = `${[...SETTING_NAMES, ...Object.keys(LEGACY_NAMES), ...INERT_NAMES].join(', ')} are missing, at least one parameter must be provided`;

export type SettingsChange = Partial<Record<SettingName, unknown>>;

export function parseSettingsInput(raw: Record<string, unknown>): SettingsChange {
  const unsupported = Object.keys(raw).filter((name) => UNSUPPORTED_SETTINGS.has(name));
  if (unsupported.length) throw new ValidationError(Object.fromEntries(unsupported.map((name) => [name, ['is not supported by this server']])));
  rejectTogether(raw, ['password_authentication_enabled_for_web', 'password_authentication_enabled', 'signin_enabled'].filter((name) => raw[name] !== undefined));
  const input = { ...raw };
  // The legacy name wins over the current one, as lib/api/settings.rb renames it after declaring both.
  for (const [legacy, current] of Object.entries(LEGACY_NAMES)) if (input[legacy] !== undefined) input[current] = input[legacy];
  if (![...SETTING_NAMES, ...INERT_NAMES].some((name) => input[name] !== undefined)) throw new ParamError(AT_LEAST_ONE);
  const parsed = parseParams(input, SCHEMA) as Record<string, unknown>;
  // Grape's `given require_two_factor_authentication: true { requires :two_factor_grace_period }`.
  if (parsed.require_two_factor_authentication === true && parsed.two_factor_grace_period === undefined) throw new ParamError('two_factor_grace_period is missing');
  const change: SettingsChange = {};
  const errors: Record<string, string[]> = {};
  for (const name of SETTING_NAMES) {
    if (parsed[name] === undefined) continue;
    const checked = fixedValue(SETTINGS[name], checkValue(name, SETTINGS[name], parsed[name]));
    if ('errors' in checked) {
      if (checked.grape) throw new ParamError(`${name} ${checked.errors[0]}`);
      errors[name] = checked.errors;
    } else {
      change[name] = checked.value;
    }
  }
  // Checked as GitLab checks them, then dropped: nothing reads them (INERT_SETTINGS).
  for (const name of INERT_NAMES) {
    if (parsed[name] === undefined) continue;
    const checked = checkValue(name as SettingName, INERT_SETTINGS[name], parsed[name]);
    if ('errors' in checked) errors[name] = checked.errors;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return change;
}

type Checked = { value: unknown } | { errors: string[]; grape?: boolean };

/** A setting Kiln has no code path for accepts only the default it behaves as. */
function fixedValue(definition: SettingDefinition, checked: Checked): Checked {
  if (!definition.fixed || 'errors' in checked) return checked;
  return JSON.stringify(checked.value) === JSON.stringify(definition.default) ? checked : { errors: [definition.fixed] };
}

function checkValue(name: SettingName, definition: SettingDefinition, value: unknown): Checked {
  switch (definition.kind) {
    case 'integer': {
      const number = value as number;
      if (definition.values && !definition.values.includes(number)) return { errors: ['does not have a valid value'], grape: true };
      if (definition.min && number < definition.min.value) return { errors: [definition.min.message] };
      if (definition.max && number > definition.max.value) return { errors: [definition.max.message] };
      return { value: number };
    }
    case 'visibilities':
      return checkVisibilities(value as string[]);
    case 'hosts':
      return checkHosts(value);
    case 'url':
      return checkUrl(value as string);
    case 'text':
      return { value: value === '' ? null : value };
    case 'choice': {
      const refusal = definition.refusedChoices?.[value as string];
      return refusal ? { errors: [refusal] } : { value };
    }
    case 'hostname':
      return checkHostname(value as string);
    case 'regexp':
      return checkRegexp(value as string);
    default:
      return { value };
  }
}

function checkVisibilities(levels: string[]): Checked {
  const values: string[] = [];
  for (const level of levels) {
    const visibility = visibilityOf(level);
    if (!visibility) return { errors: [`'${level}' is not a valid visibility level`] };
    if (!values.includes(visibility)) values.push(visibility);
  }
  return { value: values };
}

/** GitLab's QualifiedDomainArrayValidator and the 1000-entry limit of the outbound allowlist. */
function checkHosts(value: unknown): Checked {
  let entries: string[];
  if (typeof value === 'string') entries = value.split(/[\n,;]+/);
  else if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) entries = value;
  else if (value === null) return { errors: ['entries cannot be nil'] };
  else return { errors: ['is invalid'] };
  entries = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length > MAX_ALLOWLIST_ENTRIES) return { errors: [`is too long (maximum is ${MAX_ALLOWLIST_ENTRIES} entries)`] };
  if (entries.some((entry) => entry.length > MAX_HOST_LENGTH)) return { errors: [`entries cannot be larger than ${MAX_HOST_LENGTH} characters`] };
  // eslint-disable-next-line no-control-regex
  if (entries.some((entry) => /[^\x00-\x7f]/.test(entry))) return { errors: ['unicode domains should use IDNA encoding'] };
  if (entries.some((entry) => /[<>]/.test(entry))) return { errors: ['entries cannot contain HTML tags'] };
  return { value: [...new Set(entries)] };
}

/** GitLab's `format: { with: /\A[^@]+\z/ }` on commit_email_hostname; blank returns to the default. */
function checkHostname(value: string): Checked {
  const text = value.trim();
  if (text === '') return { value: null };
  return /^[^@\s]+$/.test(text) ? { value: text } : { errors: ['is invalid'] };
}

/** GitLab's UntrustedRegexpValidator: the pattern must be RE2 syntax (it is matched by RE2, in linear time). */
function checkRegexp(value: string): Checked {
  try {
    untrustedRegexp(value);
  } catch (error) {
    if (error instanceof UntrustedRegexpError) return { errors: [`not valid RE2 syntax: ${error.message}`] };
    throw error;
  }
  return { value };
}

/** GitLab's AddressableUrlValidator (http and https), blank allowed. */
function checkUrl(value: string): Checked {
  if (value.trim() === '') return { value: null };
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { value };
  } catch {
    /* not a URL */
  }
  return { errors: ['must be a valid URL'] };
}
