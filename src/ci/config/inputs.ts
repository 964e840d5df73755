// `spec:inputs` and `include:inputs` (GitLab's Ci::Config::Interpolation): a file may begin with a
// header document declaring its inputs (type, default, options, regex); whoever includes it passes
// values, and `$[[ inputs.name ]]` in the file's keys and values is replaced by them before the file
// is merged. A block that is a whole value keeps the input's type (an array stays an array); inside
// a longer string it is written as text. Up to three functions may follow the access
// (`| truncate(0,8)`, `| expand_vars`). The errors are GitLab's, the first three joined.
import { isHash, type Hash } from './parse-config.js';
import { expandVariables } from '../variables.js';
import { untrustedRegexp, UntrustedRegexpError } from '../../platform/patterns/untrusted-regexp.js';

const INPUT_TYPES = ['array', 'boolean', 'number', 'string'] as const;
type InputType = (typeof INPUT_TYPES)[number];
const SPEC_KEYS = ['inputs'];
const INPUT_KEYS = ['default', 'description', 'options', 'regex', 'type'];
const MAX_BLOCKS = 10_000;
const MAX_FUNCTIONS = 3;
const MAX_ACCESS_OBJECTS = 5;
const MAX_ACCESS_BYTES = 1024;
const BLOCK = /\$\[\[\s*(\S.*?\S)\s*\]\]/g;

export const INPUTS_WITHOUT_SPEC = 'Given inputs not defined in the `spec` section of the included configuration file';

type Value = unknown;

function typeOf(value: Value): InputType | null {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return null;
}

/** The header's own errors (GitLab's Header::Root), then the inputs' specifications by name. */
function readSpec(header: Hash, errors: string[]): Map<string, Hash> {
  const specs = new Map<string, Hash>();
  const spec = header.spec;
  const extraTop = Object.keys(header).filter((key) => key !== 'spec');
  if (extraTop.length) errors.push(`header config contains unknown keys: ${extraTop.join(', ')}`);
  if (!isHash(spec)) {
    errors.push('header:spec config should be a hash');
    return specs;
  }
  const unknown = Object.keys(spec).filter((key) => !SPEC_KEYS.includes(key));
  if (unknown.length) errors.push(`header:spec config contains unknown keys: ${unknown.join(', ')}`);
  if (spec.inputs === undefined || spec.inputs === null) return specs;
  if (!isHash(spec.inputs)) {
    errors.push('header:spec:inputs config should be a hash');
    return specs;
  }
  for (const [name, input] of Object.entries(spec.inputs)) {
    if (input !== null && !isHash(input)) {
      errors.push(`header:spec:inputs:${name} config should be a hash`);
      continue;
    }
    const extra = Object.keys(input ?? {}).filter((key) => !INPUT_KEYS.includes(key));
    if (extra.length) errors.push(`header:spec:inputs:${name} config contains unknown keys: ${extra.join(', ')}`);
    specs.set(name, input ?? {});
  }
  return specs;
}

/** GitLab's Inputs: each input's value (given, else its default) checked against its specification. */
function resolveInputs(specs: Map<string, Hash>, given: Hash): { values: Hash; errors: string[] } {
  const errors: string[] = [];
  const unknown = Object.keys(given).filter((name) => !specs.has(name));
  if (unknown.length) errors.push(`unknown input arguments: ${unknown.join(', ')}`);
  const values: Hash = {};
  for (const [name, spec] of specs) {
    const type = spec.type === undefined ? 'string' : spec.type;
    if (typeof type !== 'string' || !(INPUT_TYPES as readonly string[]).includes(type)) {
      errors.push(`unknown input specification for \`${name}\` (valid types: ${INPUT_TYPES.join(', ')})`);
      continue;
    }
    const fail = (message: string) => errors.push(`\`${name}\` input: ${message}`);
    const value = given[name] ?? null;
    const required = !Object.hasOwn(spec, 'default');
    if (required && value === null) {
      fail('required value has not been provided');
      continue;
    }
    const before = errors.length;
    const check = (candidate: Value, which: 'default' | 'provided') => {
      if (typeOf(candidate) !== type) fail(`${which} value is not ${type === 'array' ? 'an' : 'a'} ${type}`);
      if (spec.options !== undefined && spec.options !== null) {
        if (type !== 'string' && type !== 'number') fail('Options can only be used with string and number inputs');
        else if (!Array.isArray(spec.options) || !spec.options.includes(candidate)) fail(`\`${String(candidate)}\` cannot be used because it is not in the list of allowed options`);
      }
      if (spec.regex !== undefined) {
        if (type !== 'string') fail('RegEx validation can only be used with string inputs');
        else if (typeof candidate === 'string') {
          try {
            if (!untrustedRegexp(String(spec.regex)).matcher(candidate).find()) fail(`${which} value does not match required RegEx pattern`);
          } catch (error) {
            if (!(error instanceof UntrustedRegexpError)) throw error;
            fail('invalid regular expression');
          }
        }
      }
    };
    if (!required) check(spec.default ?? null, 'default');
    if (value !== null) check(value, 'provided');
    if (errors.length === before) values[name] = value ?? spec.default ?? null;
  }
  return { values, errors };
}

/** GitLab's interpolation functions; null: none matches the expression. */
function applyFunction(expression: string, value: Value, variables: Record<string, string>): { value: Value } | { error: string } | null {
  const truncate = /^truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(expression);
  if (truncate) {
    if (typeof value !== 'string') return { error: 'invalid input type: truncate can only be used with string inputs' };
    const offset = Number(truncate[1]);
    return { value: value.slice(offset, offset + Number(truncate[2])) };
  }
  if (expression === 'expand_vars') {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return { error: 'invalid input type: expand_vars can only be used with string, number or boolean inputs' };
    return { value: expandVariables(String(value), variables) };
  }
  return null;
}

/** One `$[[ access | function … ]]` block's value. */
function evaluateBlock(data: string, context: Hash, variables: Record<string, string>): { value: Value } | { errors: string[] } {
  const [access, ...functions] = data.split('|').map((part) => part.trim());
  const objects = access.split('.');
  const errors: string[] = [];
  if (objects.length <= 1) errors.push('invalid interpolation access pattern');
  if (Buffer.byteLength(access) > MAX_ACCESS_BYTES) errors.push('maximum interpolation expression size exceeded');
  if (objects.length > MAX_ACCESS_OBJECTS) objects.splice(MAX_ACCESS_OBJECTS - 1, objects.length, objects.slice(MAX_ACCESS_OBJECTS - 1).join('.'));
  if (errors.length) return { errors };
  let value: Value = context;
  for (const key of objects) {
    if (!isHash(value) || !Object.hasOwn(value, key)) return { errors: [`unknown interpolation key: \`${key}\``] };
    value = value[key];
  }
  if (functions.length > MAX_FUNCTIONS) return { errors: ['too many functions in interpolation block'] };
  for (const expression of functions) {
    const applied = applyFunction(expression, value, variables);
    if (applied === null) return { errors: [`no function matching \`${expression}\`: check that the function name, arguments, and types are correct`] };
    if ('error' in applied) return { errors: [applied.error] };
    value = applied.value;
  }
  return { value };
}

const asText = (value: Value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Every string (keys and values) of the configuration with its blocks replaced; the first failing block stops it. */
function interpolateTree(content: Hash, context: Hash, variables: Record<string, string>): { hash: Hash } | { errors: string[] } {
  const blocks = new Map<string, Value>();
  const errors: string[] = [];
  const node = (text: string): Value => {
    if (errors.length || !text.includes('$[[')) return text;
    const matches = [...text.matchAll(BLOCK)];
    if (!matches.length) return text;
    for (const match of matches) {
      if (blocks.has(match[0])) continue;
      const result = evaluateBlock(match[1], context, variables);
      if ('errors' in result) {
        errors.push(...result.errors);
        return text;
      }
      blocks.set(match[0], result.value);
      if (blocks.size > MAX_BLOCKS) {
        errors.push('too many interpolation blocks');
        return text;
      }
    }
    if (matches.length === 1 && matches[0][0].length === text.length) return blocks.get(matches[0][0]);
    return matches.reduce((result, match) => result.split(match[0]).join(asText(blocks.get(match[0]))), text);
  };
  const walk = (value: Value): Value => {
    if (typeof value === 'string') return node(value);
    if (Array.isArray(value)) return value.map(walk);
    if (isHash(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [asText(node(key)), walk(inner)]));
    return value;
  };
  const hash = walk(content) as Hash;
  return errors.length ? { errors } : { hash };
}

/**
 * A loaded file with its header applied to the inputs given (none for a pipeline's own file): the
 * configuration interpolated, or GitLab's message (at most three errors joined).
 */
export function interpolateInputs(loaded: { hash: Hash; header?: Hash }, given: unknown, variables: Record<string, string>): { hash: Hash } | { error: string } {
  const inputs = isHash(given) ? given : {};
  if (given !== undefined && given !== null && !isHash(given)) return { error: 'include:inputs config must be a hash' };
  if (!loaded.header) return Object.keys(inputs).length ? { error: INPUTS_WITHOUT_SPEC } : { hash: loaded.hash };
  const headerErrors: string[] = [];
  const specs = readSpec(loaded.header, headerErrors);
  const joined = (errors: string[]) => ({ error: errors.slice(0, 3).join(', ') });
  if (headerErrors.length) return joined(headerErrors);
  const resolved = resolveInputs(specs, inputs);
  if (resolved.errors.length) return joined(resolved.errors);
  const result = interpolateTree(loaded.hash, { inputs: resolved.values }, variables);
  return 'errors' in result ? joined(result.errors) : result;
}
