// `.gitlab-ci.yml` (GitLab's Gitlab::Ci::Config): the YAML read with alias and size limits, `extends`
// and `default:` resolved, every job checked in GitLab's words (`jobs:<name> <attribute> <message>`),
// and the result normalised into the job definitions a pipeline is created from (a `parallel:` job
// expanded into its instances, parallel.ts). Keywords Kiln does not act on yet (`resource_group`, …) are
// accepted and kept in the definition.
import { parseAllDocuments, parseDocument, isMap, isScalar as isYamlScalar, stringify, visit, Scalar, type Document } from 'yaml';
import { parseDuration } from './duration.js';
import { ExpressionError, validateExpression } from './expressions.js';
import { parseCaches, type CiCache } from './cache.js';
import { expandParallelJobs, parseParallel, type CiNode, type CiParallel } from './parallel.js';

/** A cache as the runner gets it: its key made (files, protection), GitLab's JobRequest::Cache. */
export interface ResolvedCache {
  key: string;
  untracked: boolean;
  paths: string[];
  policy: string;
  when: string;
  fallback_keys: string[];
}

/** GitLab's `max_yaml_size_bytes` and `max_yaml_depth` defaults. */
export const MAX_YAML_BYTES = 1024 * 1024;
const MAX_YAML_DEPTH = 100;
const MAX_ALIASES = 100;
const MAX_EXTENDS_DEPTH = 11;
const MAX_NEEDS = 50;
/** GitLab's limit of `rules:changes` and `rules:exists` entries. */
const MAX_RULE_PATHS = 50;

export const DEFAULT_STAGES = ['build', 'test', 'deploy'];
export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';
const WHENS: JobWhen[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
const RULE_WHENS = [...WHENS, 'never'];

export interface CiImage {
  name: string;
  entrypoint?: string[];
  ports?: unknown[];
  pull_policy?: string[];
}
export interface CiService extends CiImage {
  alias?: string;
  command?: string[];
  variables?: Record<string, string>;
}
export interface CiRule {
  if?: string;
  changes?: string[];
  /** `changes:compare_to`: the ref whose commit the changes are counted from. */
  compareTo?: string;
  exists?: string[];
  /** `exists:project` and `exists:ref`: the files looked at are that project's, at that ref (default: its default branch). */
  existsProject?: string;
  existsRef?: string;
  when?: JobWhen | 'never';
  allowFailure?: boolean;
  variables?: Record<string, string>;
  startIn?: string;
}
export interface CiRefFilter {
  refs: string[];
  variables: string[];
  /** `only:changes` / `except:changes` globs. */
  changes?: string[];
}
export interface CiNeed {
  job: string;
  artifacts: boolean;
  optional: boolean;
  /** `parallel: matrix:` of a need: which instances of a parallel job (gone once the jobs are expanded). */
  parallel?: CiParallel;
}
export interface CiArtifacts {
  name?: string;
  paths: string[];
  exclude: string[];
  untracked: boolean;
  when: 'on_success' | 'on_failure' | 'always';
  expireIn?: string;
  exposeAs?: string;
  reports?: Record<string, unknown>;
}
export interface CiEnvironment {
  name: string;
  url?: string;
  action: 'start' | 'prepare' | 'stop' | 'verify' | 'access';
  onStop?: string;
  autoStopIn?: string;
  deploymentTier?: string;
}
export interface CiJobDefinition {
  name: string;
  stage: string;
  script: string[];
  beforeScript: string[] | null;
  afterScript: string[] | null;
  image: CiImage | null;
  services: CiService[];
  variables: Record<string, string>;
  tags: string[];
  when: JobWhen;
  startIn?: string;
  allowFailure: boolean;
  /** `allow_failure: {exit_codes}`: these exit codes count as an allowed failure. */
  allowFailureExitCodes: number[];
  only: CiRefFilter | null;
  except: CiRefFilter | null;
  rules: CiRule[] | null;
  needs: CiNeed[] | null;
  dependencies: string[] | null;
  artifacts: CiArtifacts | null;
  environment: CiEnvironment | null;
  /** Seconds. */
  timeout: number | null;
  retry: { max: number; when: string[] };
  interruptible: boolean;
  coverage: string | null;
  /** `cache:` as written; the pipeline resolves `key:files` into `resolvedCache`. */
  cache: CiCache[] | null;
  resolvedCache?: ResolvedCache[];
  resourceGroup: string | null;
  /** `parallel:` as written; the configuration's jobs are its instances, which have `node` instead. */
  parallel?: CiParallel;
  /** An instance of a parallel job: its `CI_NODE_INDEX` and `CI_NODE_TOTAL`. */
  node?: CiNode;
}
export interface CiConfig {
  stages: string[];
  variables: Record<string, string>;
  workflowRules: CiRule[] | null;
  /** `workflow:auto_cancel`, absent when the file does not set it (GitLab's defaults then). */
  autoCancel?: CiAutoCancel;
  jobs: CiJobDefinition[];
}
export const AUTO_CANCEL_ON_NEW_COMMIT = ['conservative', 'interruptible', 'none'] as const;
export const AUTO_CANCEL_ON_JOB_FAILURE = ['none', 'all'] as const;
export interface CiAutoCancel {
  onNewCommit?: (typeof AUTO_CANCEL_ON_NEW_COMMIT)[number];
  onJobFailure?: (typeof AUTO_CANCEL_ON_JOB_FAILURE)[number];
}
export interface ParsedCiConfig {
  errors: string[];
  warnings: string[];
  config: CiConfig | null;
  /** The configuration after `extends` (GitLab's `merged_yaml`), when it parsed. */
  mergedYaml: string | null;
}

const ROOT_KEYWORDS = new Set(['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'types', 'cache', 'workflow']);
const DEFAULT_KEYS = ['after_script', 'artifacts', 'before_script', 'cache', 'hooks', 'id_tokens', 'image', 'interruptible', 'retry', 'services', 'tags', 'timeout'];
const JOB_KEYS = new Set([
  'after_script', 'allow_failure', 'artifacts', 'before_script', 'cache', 'coverage', 'dast_configuration', 'dependencies', 'environment', 'except', 'extends',
  'hooks', 'id_tokens', 'identity', 'image', 'inherit', 'interruptible', 'manual_confirmation', 'needs', 'only', 'pages', 'parallel', 'release', 'resource_group',
  'retry', 'rules', 'run', 'script', 'secrets', 'services', 'stage', 'start_in', 'tags', 'timeout', 'trigger', 'variables', 'when',
]);
const RETRY_WHENS = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'runner_unsupported', 'stale_schedule',
  'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure', 'data_integrity_failure',
];
const ENVIRONMENT_NAME = /^[a-zA-Z0-9 \-_/${}.]+$/;

export const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit) return depth;
  if (Array.isArray(value)) return Math.max(depth, ...value.map((item) => depthOf(item, limit, depth + 1)));
  if (isHash(value)) return Math.max(depth, ...Object.values(value).map((item) => depthOf(item, limit, depth + 1)));
  return depth;
}

/** A script: a string, or an array of strings and arrays nested up to 10 levels, flattened. */
function flattenScript(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return [value];
  if (isScalar(value)) return [String(value)];
  if (!Array.isArray(value) || depth >= 10) return null;
  const lines: string[] = [];
  for (const item of value) {
    const inner = flattenScript(item, depth + 1);
    if (!inner) return null;
    lines.push(...inner);
  }
  return lines;
}

/** Hashes merged key by key (arrays and scalars of `over` replace), as Rails' deep_merge. */
export function deepMerge(base: Hash, over: Hash): Hash {
  const merged: Hash = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = isHash(value) && isHash(merged[key]) ? deepMerge(merged[key] as Hash, value) : value;
  return merged;
}

/** `extends:` resolved for every job: bases deep-merged in order, the job's own keys last. */
function resolveExtends(entries: Map<string, unknown>, errors: string[]): Map<string, unknown> {
  const resolved = new Map<string, unknown>();
  const resolve = (name: string, chain: string[]): Hash | null => {
    const done = resolved.get(name);
    if (done !== undefined) return done as Hash;
    const entry = entries.get(name);
    if (!isHash(entry) || entry.extends === undefined) {
      resolved.set(name, entry);
      return isHash(entry) ? entry : null;
    }
    if (chain.includes(name)) throw new Error(`${chain[0]}: circular dependency detected in \`extends\``);
    if (chain.length >= MAX_EXTENDS_DEPTH) throw new Error(`${chain[0]}: nesting too deep in \`extends\``);
    const bases = typeof entry.extends === 'string' ? [entry.extends] : entry.extends;
    if (!isStringArray(bases)) throw new Error(`${name}: invalid base hashes in \`extends\` (${String(entry.extends)})`);
    let merged: Hash = {};
    for (const base of bases) {
      if (!entries.has(base)) throw new Error(`${name}: unknown keys in \`extends\` (${base})`);
      const baseHash = resolve(base, [...chain, name]);
      if (!baseHash) throw new Error(`${name}: invalid base hashes in \`extends\` (${base})`);
      merged = deepMerge(merged, baseHash);
    }
    const own = { ...entry };
    delete own.extends;
    const result = deepMerge(merged, own);
    resolved.set(name, result);
    return result;
  };
  for (const name of entries.keys()) {
    try {
      resolve(name, []);
    } catch (error) {
      errors.push((error as Error).message);
      return entries;
    }
  }
  return resolved;
}

function stringMap(value: unknown): Record<string, string> | null {
  if (!isHash(value)) return null;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isScalar(item)) out[key] = String(item);
    else if (isHash(item) && isScalar(item.value)) out[key] = String(item.value);
    else if (isHash(item) && item.value === undefined) out[key] = '';
    else return null;
  }
  return out;
}

function parseImage(value: unknown): CiImage | null {
  if (typeof value === 'string') return { name: value };
  if (!isHash(value) || typeof value.name !== 'string') return null;
  const image: CiImage = { name: value.name };
  if (value.entrypoint !== undefined) image.entrypoint = isStringArray(value.entrypoint) ? value.entrypoint : [String(value.entrypoint)];
  if (Array.isArray(value.ports)) image.ports = value.ports;
  if (value.pull_policy !== undefined) image.pull_policy = isStringArray(value.pull_policy) ? value.pull_policy : [String(value.pull_policy)];
  return image;
}

function parseServices(value: unknown, location: string, errors: string[]): CiService[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors.push(`${location}:services config should be a array`);
    return [];
  }
  const services: CiService[] = [];
  for (const item of value) {
    const image = parseImage(item);
    if (!image) {
      errors.push(`${location}:services:service config should be a hash or a string`);
      continue;
    }
    const service: CiService = { ...image };
    if (isHash(item)) {
      if (typeof item.alias === 'string') service.alias = item.alias;
      if (item.command !== undefined) service.command = isStringArray(item.command) ? item.command : [String(item.command)];
      const variables = stringMap(item.variables);
      if (variables) service.variables = variables;
    }
    services.push(service);
  }
  return services;
}

function parseRefFilter(value: unknown, location: string, errors: string[]): CiRefFilter | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { refs: [value], variables: [] };
  if (isStringArray(value)) return { refs: value, variables: [] };
  if (isHash(value)) {
    const unknown = Object.keys(value).filter((key) => !['refs', 'variables', 'changes', 'kubernetes'].includes(key));
    if (unknown.length) errors.push(`${location} config contains unknown keys: ${unknown.join(', ')}`);
    const refs = value.refs === undefined ? [] : value.refs;
    const variables = value.variables === undefined ? [] : value.variables;
    if (!isStringArray(refs)) errors.push(`${location} refs should be an array of strings`);
    if (!isStringArray(variables)) errors.push(`${location} variables should be an array of strings`);
    else {
      for (const expression of variables) {
        try {
          validateExpression(expression);
        } catch (error) {
          if (!(error instanceof ExpressionError)) throw error;
          errors.push(`${location} variables invalid expression syntax`);
        }
      }
    }
    const changes = typeof value.changes === 'string' ? [value.changes] : value.changes;
    if (changes !== undefined && !isStringArray(changes)) errors.push(`${location} changes should be an array of strings`);
    return { refs: isStringArray(refs) ? refs : [], variables: isStringArray(variables) ? variables : [], ...(isStringArray(changes) ? { changes } : {}) };
  }
  errors.push(`${location} config should be an array of strings or a hash`);
  return null;
}

function parseRules(value: unknown, location: string, errors: string[]): CiRule[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    errors.push(`${location}:rules config should be an array of hashes`);
    return null;
  }
  const rules: CiRule[] = [];
  for (const item of value) {
    const at = `${location}:rules:rule`;
    if (!isHash(item)) {
      errors.push(`${at} config should be a hash`);
      continue;
    }
    const unknown = Object.keys(item).filter((key) => !['if', 'changes', 'exists', 'when', 'allow_failure', 'variables', 'start_in', 'needs', 'interruptible'].includes(key));
    if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
    const rule: CiRule = {};
    if (item.if !== undefined) {
      if (typeof item.if !== 'string') errors.push(`${at} if should be a string`);
      else {
        try {
          validateExpression(item.if);
          rule.if = item.if;
        } catch (error) {
          if (!(error instanceof ExpressionError)) throw error;
          errors.push(`${at} if invalid expression syntax`);
        }
      }
    }
    if (item.when !== undefined) {
      if (typeof item.when !== 'string' || !RULE_WHENS.includes(item.when)) errors.push(`${at} when unknown value: ${String(item.when)}`);
      else rule.when = item.when as CiRule['when'];
    }
    if (item.allow_failure !== undefined) {
      if (typeof item.allow_failure !== 'boolean') errors.push(`${at} allow_failure should be a boolean value`);
      else rule.allowFailure = item.allow_failure;
    }
    if (item.variables !== undefined) {
      const variables = stringMap(item.variables);
      if (!variables) errors.push(`${at}:variables config should be a hash of key value pairs`);
      else rule.variables = variables;
    }
    for (const key of ['changes', 'exists'] as const) {
      const list = item[key];
      if (list === undefined) continue;
      const paths = typeof list === 'string' ? [list] : isHash(list) && list.paths !== undefined ? list.paths : list;
      if (!isStringArray(paths)) errors.push(`${at}:${key} config should be an array of strings`);
      else if (paths.length > MAX_RULE_PATHS) errors.push(`${at}:${key} config has too many entries (maximum ${MAX_RULE_PATHS})`);
      else rule[key] = paths;
      if (key === 'changes' && isHash(list) && list.compare_to !== undefined) {
        if (typeof list.compare_to !== 'string') errors.push(`${at}:changes compare to should be a string`);
        else rule.compareTo = list.compare_to;
      }
      if (key === 'exists' && isHash(list)) {
        for (const [field, name] of [['project', 'existsProject'], ['ref', 'existsRef']] as const) {
          if (list[field] === undefined) continue;
          if (typeof list[field] !== 'string') errors.push(`${at}:exists ${field} should be a string`);
          else rule[name] = list[field];
        }
        if (rule.existsRef !== undefined && rule.existsProject === undefined) errors.push(`${at}:exists ref requires project`);
      }
    }
    if (item.start_in !== undefined) rule.startIn = String(item.start_in);
    rules.push(rule);
  }
  return rules;
}

function parseNeeds(value: unknown, location: string, errors: string[]): CiNeed[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    errors.push(`${location}:needs config can only be a hash or an array`);
    return null;
  }
  if (value.length > MAX_NEEDS) errors.push(`${location}:needs config has too many entries (maximum ${MAX_NEEDS})`);
  const needs: CiNeed[] = [];
  for (const item of value) {
    if (typeof item === 'string') needs.push({ job: item, artifacts: true, optional: false });
    else if (isHash(item) && typeof item.job === 'string') {
      const parallel = parseParallel(item.parallel, `${location}:needs:need:parallel`, errors, false);
      needs.push({ job: item.job, artifacts: item.artifacts !== false, optional: item.optional === true, ...(parallel ? { parallel } : {}) });
    }
    else if (isHash(item) && (item.pipeline !== undefined || item.project !== undefined)) continue;
    else errors.push(`${location}:needs:need config must be a string or a hash`);
  }
  return needs;
}

function parseArtifacts(value: unknown, location: string, errors: string[]): CiArtifacts | null {
  if (value === undefined || value === null) return null;
  const at = `${location}:artifacts`;
  if (!isHash(value)) {
    errors.push(`${at} config should be a hash`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => !['name', 'paths', 'exclude', 'untracked', 'when', 'expire_in', 'expose_as', 'reports', 'public', 'access'].includes(key));
  if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
  const artifacts: CiArtifacts = { paths: [], exclude: [], untracked: false, when: 'on_success' };
  if (value.name !== undefined) {
    if (typeof value.name !== 'string') errors.push(`${at} name should be a string`);
    else artifacts.name = value.name;
  }
  if (value.paths !== undefined) {
    if (!isStringArray(value.paths)) errors.push(`${at} paths should be an array of strings`);
    else artifacts.paths = value.paths;
  }
  if (value.exclude !== undefined) {
    if (!isStringArray(value.exclude)) errors.push(`${at} exclude should be an array of strings`);
    else artifacts.exclude = value.exclude;
  }
  if (value.untracked !== undefined) {
    if (typeof value.untracked !== 'boolean') errors.push(`${at} untracked should be a boolean value`);
    else artifacts.untracked = value.untracked;
  }
  if (value.when !== undefined) {
    if (value.when !== 'on_success' && value.when !== 'on_failure' && value.when !== 'always') errors.push(`${at} when should be on_success, on_failure or always`);
    else artifacts.when = value.when;
  }
  if (value.expire_in !== undefined) {
    const text = String(value.expire_in);
    if (text !== 'never' && parseDuration(text) === null) errors.push(`${at} expire in should be a duration`);
    else artifacts.expireIn = text;
  }
  if (typeof value.expose_as === 'string') artifacts.exposeAs = value.expose_as;
  if (isHash(value.reports)) artifacts.reports = value.reports;
  return artifacts;
}

function parseEnvironment(value: unknown, location: string, errors: string[]): CiEnvironment | null {
  if (value === undefined || value === null) return null;
  const at = `${location}:environment`;
  if (typeof value === 'string') value = { name: value };
  if (!isHash(value)) {
    errors.push(`${at} config should be a hash or a string`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => !['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier'].includes(key));
  if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
  if (typeof value.name !== 'string' || value.name === '') {
    errors.push(`${at} name can't be blank`);
    return null;
  }
  if (!ENVIRONMENT_NAME.test(value.name) || value.name.startsWith('/') || value.name.endsWith('/')) {
    errors.push(`${at} name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'`);
  }
  if ([...value.name].length > 255) errors.push(`${at} name is too long (maximum is 255 characters)`);
  const environment: CiEnvironment = { name: value.name, action: 'start' };
  if (value.url !== undefined) {
    if (typeof value.url !== 'string') errors.push(`${at} url should be a string`);
    else if ([...value.url].length > 255) errors.push(`${at} url is too long (maximum is 255 characters)`);
    else environment.url = value.url;
  }
  if (value.action !== undefined) {
    if (!['start', 'stop', 'prepare', 'verify', 'access'].includes(String(value.action))) errors.push(`${at} action should be start, stop or prepare`);
    else environment.action = value.action as CiEnvironment['action'];
  }
  if (value.on_stop !== undefined) environment.onStop = String(value.on_stop);
  if (value.auto_stop_in !== undefined) environment.autoStopIn = String(value.auto_stop_in);
  if (value.deployment_tier !== undefined) {
    if (!['production', 'staging', 'testing', 'development', 'other'].includes(String(value.deployment_tier))) {
      errors.push(`${at} deployment tier must be one of production, staging, testing, development, other`);
    } else environment.deploymentTier = String(value.deployment_tier);
  }
  return environment;
}

function parseRetry(value: unknown, location: string, errors: string[]): { max: number; when: string[] } {
  const none = { max: 0, when: ['always'] };
  if (value === undefined || value === null) return none;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 2) {
      errors.push(`${location}:retry config must be less than or equal to 2`);
      return none;
    }
    return { max: value, when: ['always'] };
  }
  if (isHash(value)) {
    const max = value.max === undefined ? 0 : value.max;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > 2) errors.push(`${location}:retry max must be less than or equal to 2`);
    const when = value.when === undefined ? ['always'] : typeof value.when === 'string' ? [value.when] : value.when;
    if (!isStringArray(when)) errors.push(`${location}:retry when should be an array of strings or a string`);
    else {
      const unknown = when.filter((reason) => !RETRY_WHENS.includes(reason));
      if (unknown.length) errors.push(`${location}:retry when contains unknown values: ${unknown.join(', ')}`);
    }
    return { max: typeof max === 'number' ? Math.min(2, Math.max(0, Math.floor(max))) : 0, when: isStringArray(when) ? when : ['always'] };
  }
  errors.push(`${location}:retry config has to be either an integer or a hash`);
  return none;
}

function parseJob(name: string, entry: Hash, defaults: Hash, stages: string[], errors: string[]): CiJobDefinition | null {
  const location = `jobs:${name}`;
  const unknown = Object.keys(entry).filter((key) => !JOB_KEYS.has(key));
  if (unknown.length) errors.push(`${location} config contains unknown keys: ${unknown.join(', ')}`);
  if (entry.trigger !== undefined) {
    errors.push(`${location} trigger is not supported by Kiln yet`);
    return null;
  }
  if (entry.script === undefined) {
    errors.push(`jobs ${name} config should implement a script: or a trigger: keyword`);
    return null;
  }
  const inherit = isHash(entry.inherit) ? entry.inherit : {};
  const inheritDefault = inherit.default === undefined ? true : inherit.default;
  const fromDefault = (key: string): unknown => {
    if (entry[key] !== undefined) return entry[key];
    if (inheritDefault === false) return undefined;
    if (Array.isArray(inheritDefault) && !inheritDefault.includes(key)) return undefined;
    return defaults[key];
  };
  const script = flattenScript(entry.script);
  if (!script) errors.push(`${location}:script config should be a string or a nested array of strings up to 10 levels deep`);
  const scripts: Record<string, string[] | null> = {};
  for (const key of ['before_script', 'after_script']) {
    const value = fromDefault(key);
    if (value === undefined || value === null) scripts[key] = null;
    else {
      scripts[key] = flattenScript(value);
      if (!scripts[key]) errors.push(`${location}:${key} config should be a string or a nested array of strings up to 10 levels deep`);
    }
  }
  const stage = entry.stage === undefined ? 'test' : entry.stage;
  if (typeof stage !== 'string') errors.push(`${location}:stage config should be a string`);
  else if (!stages.includes(stage)) errors.push(`${name} job: chosen stage does not exist; available stages are ${stages.join(', ')}`);
  const imageValue = fromDefault('image');
  const image = imageValue === undefined || imageValue === null ? null : parseImage(imageValue);
  if (imageValue !== undefined && imageValue !== null && !image) errors.push(`${location}:image config should be a hash or a string`);
  const services = parseServices(fromDefault('services'), location, errors);
  let variables: Record<string, string> = {};
  if (entry.variables !== undefined && entry.variables !== null) {
    const parsed = stringMap(entry.variables);
    if (!parsed) errors.push(`${location}:variables config should be a hash of key value pairs`);
    else variables = parsed;
  }
  const tagsValue = fromDefault('tags');
  const tags = tagsValue === undefined || tagsValue === null ? [] : tagsValue;
  if (!isStringArray(tags)) errors.push(`${location}:tags config should be an array of strings`);
  const rules = parseRules(entry.rules, location, errors);
  if (rules) {
    const conflicting = ['only', 'except', 'when', 'start_in'].filter((key) => entry[key] !== undefined);
    if (conflicting.length) errors.push(`${location} config key may not be used with \`rules\`: ${conflicting.join(', ')}`);
  }
  let when: JobWhen = 'on_success';
  if (entry.when !== undefined) {
    if (typeof entry.when !== 'string' || !WHENS.includes(entry.when as JobWhen)) errors.push(`${location} when should be one of: ${WHENS.join(', ')}`);
    else when = entry.when as JobWhen;
  }
  let startIn: string | undefined;
  if (entry.start_in !== undefined) {
    if (when !== 'delayed') errors.push(`${location} start in must be blank`);
    else if (parseDuration(entry.start_in) === null) errors.push(`${location} start in should be a duration`);
    else if ((parseDuration(entry.start_in) ?? 0) > 604800) errors.push(`${location} start in should not exceed the limit`);
    else startIn = String(entry.start_in);
  } else if (when === 'delayed') errors.push(`${location} start in should be a duration`);
  // A manual job without rules may fail without failing the pipeline, unless it says otherwise.
  let allowFailure = when === 'manual' && !rules;
  let allowFailureExitCodes: number[] = [];
  if (entry.allow_failure !== undefined) {
    if (typeof entry.allow_failure === 'boolean') allowFailure = entry.allow_failure;
    else if (isHash(entry.allow_failure)) {
      const codes = entry.allow_failure.exit_codes;
      const list = typeof codes === 'number' ? [codes] : codes;
      if (!Array.isArray(list) || !list.every((code) => Number.isInteger(code))) errors.push(`${location}:allow_failure exit codes should be an array of integers or an integer`);
      else allowFailureExitCodes = list as number[];
      allowFailure = false;
    } else errors.push(`${location} allow failure should be a hash or a boolean value`);
  }
  const needs = parseNeeds(entry.needs, location, errors);
  let dependencies: string[] | null = null;
  if (entry.dependencies !== undefined && entry.dependencies !== null) {
    if (!isStringArray(entry.dependencies)) errors.push(`${location} dependencies should be an array of strings`);
    else dependencies = entry.dependencies;
  }
  // Checked on the names as written, before a parallel job's name stands for its instances (GitLab's Entry::Job).
  for (const dependency of dependencies ?? []) {
    if (needs && !needs.some((need) => need.job === dependency)) errors.push(`jobs:${name} dependencies the ${dependency} should be part of needs`);
  }
  const parallel = parseParallel(entry.parallel, `${location}:parallel`, errors);
  let timeout: number | null = null;
  const timeoutValue = fromDefault('timeout');
  if (timeoutValue !== undefined && timeoutValue !== null) {
    timeout = parseDuration(timeoutValue);
    if (timeout === null) errors.push(`${location}:timeout config should be a duration`);
  }
  const interruptible = fromDefault('interruptible');
  if (interruptible !== undefined && typeof interruptible !== 'boolean') errors.push(`${location} interruptible should be a boolean value`);
  let coverage: string | null = null;
  if (entry.coverage !== undefined) {
    if (typeof entry.coverage !== 'string' || !/^\/.*\/$/s.test(entry.coverage)) errors.push(`${location} coverage config must be a regular expression with re2 syntax`);
    else coverage = entry.coverage;
  }
  return {
    name,
    stage: typeof stage === 'string' ? stage : 'test',
    script: script ?? [],
    beforeScript: scripts.before_script,
    afterScript: scripts.after_script,
    image,
    services,
    variables,
    tags: isStringArray(tags) ? tags : [],
    when,
    ...(startIn !== undefined ? { startIn } : {}),
    allowFailure,
    allowFailureExitCodes,
    only: rules ? null : parseRefFilter(entry.only, `${location}:only`, errors),
    except: rules ? null : parseRefFilter(entry.except, `${location}:except`, errors),
    rules,
    needs,
    dependencies,
    artifacts: parseArtifacts(fromDefault('artifacts'), location, errors),
    environment: parseEnvironment(entry.environment, location, errors),
    timeout,
    retry: parseRetry(fromDefault('retry'), location, errors),
    interruptible: interruptible === true,
    coverage,
    cache: parseCaches(fromDefault('cache'), location, errors),
    resourceGroup: typeof entry.resource_group === 'string' ? entry.resource_group : null,
    ...(parallel ? { parallel } : {}),
  };
}

/** `needs` and `dependencies` name jobs of earlier stages (or, for needs, the same stage), with no cycle. */
function checkReferences(jobs: CiJobDefinition[], stages: string[], errors: string[]): void {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const stageIndex = (job: CiJobDefinition) => stages.indexOf(job.stage);
  for (const job of jobs) {
    for (const need of job.needs ?? []) {
      const needed = byName.get(need.job);
      if (!needed) {
        if (!need.optional) errors.push(`${job.name} job: undefined need: ${need.job}`);
      } else if (stageIndex(needed) > stageIndex(job)) errors.push(`${job.name} job: need ${need.job} is not defined in current or prior stages`);
    }
    for (const dependency of job.dependencies ?? []) {
      const needed = byName.get(dependency);
      if (!needed) errors.push(`${job.name} job: undefined dependency: ${dependency}`);
      else if (stageIndex(needed) > stageIndex(job)) errors.push(`${job.name} job: dependency ${dependency} is not defined in current or prior stages`);
    }
    if (job.environment?.onStop !== undefined) {
      const stop = byName.get(job.environment.onStop);
      if (!stop) errors.push(`${job.name} job: on_stop job ${job.environment.onStop} is not defined`);
      else if (!stop.environment) errors.push(`${job.name} job: on_stop job ${job.environment.onStop} does not have environment defined`);
      else if (stop.environment.name !== job.environment.name) errors.push(`${job.name} job: on_stop job ${job.environment.onStop} have different environment name`);
      else if (stop.environment.action !== 'stop') errors.push(`${job.name} job: on_stop job ${job.environment.onStop} needs to have action stop defined`);
    }
  }
  // Cycles through needs (possible within one stage).
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): boolean => {
    if (state.get(name) === 'done') return false;
    if (state.get(name) === 'visiting') return true;
    state.set(name, 'visiting');
    const cyclic = (byName.get(name)?.needs ?? []).some((need) => byName.has(need.job) && visit(need.job));
    state.set(name, 'done');
    return cyclic;
  };
  if (jobs.some((job) => visit(job.name))) errors.push('The pipeline has circular dependencies.');
}

export type Hash = Record<string, unknown>;

/** A YAML document read with GitLab's limits: the hash at its top, or the error GitLab reports. */
export function loadCiYaml(content: string): { hash: Hash; header?: Hash } | { error: string } {
  if (Buffer.byteLength(content) > MAX_YAML_BYTES) return { error: 'The parsed YAML is too big' };
  try {
    // A `spec:` header document before the configuration (GitLab's Yaml::Documents): both are read.
    const documents = content.includes('---') ? parseAllDocuments(content, YAML_OPTIONS) : null;
    if (Array.isArray(documents) && documents.length === 2 && isMap(documents[0].contents) && documents[0].contents.has('spec')) {
      const header = documentHash(documents[0]);
      if ('error' in header) return header;
      const body = documentHash(documents[1]);
      return 'error' in body ? body : { hash: body.hash, header: header.hash };
    }
    return documentHash(parseDocument(content, YAML_OPTIONS));
  } catch (error) {
    return { error: `(<unknown>): ${(error as Error).message.split('\n')[0]}` };
  }
}

const YAML_OPTIONS = { uniqueKeys: false, merge: true, strict: false, prettyErrors: false } as const;

function documentHash(document: Document): { hash: Hash } | { error: string } {
  if (document.errors.length) return { error: `(<unknown>): ${document.errors[0].message.split('\n')[0]}` };
  if (!isMap(document.contents)) return { error: 'Invalid configuration format' };
  unsymbolizeKeys(document);
  const raw = document.toJS({ maxAliasCount: MAX_ALIASES });
  if (!isHash(raw)) return { error: 'Invalid configuration format' };
  if (depthOf(raw, MAX_YAML_DEPTH) > MAX_YAML_DEPTH) return { error: 'The parsed YAML is too deep' };
  return { hash: raw };
}

/**
 * A plain key written as a Ruby symbol (`:script:`) is the key itself: GitLab's YAML loader permits
 * symbols and then symbolizes every key, so `:script` and `script` are one key there
 * (python-gitlab's own lint fixture is written so). A quoted `":script"` stays a string.
 */
function unsymbolizeKeys(document: Document): void {
  visit(document, {
    Pair(_key, pair) {
      const key = pair.key;
      if (isYamlScalar(key) && key.type === Scalar.PLAIN && typeof key.value === 'string' && /^:[^\s:]/.test(key.value)) key.value = key.value.slice(1);
    },
  });
}

/** A configuration without `include:` resolution (`include` is reported as needing a project). */
export function parseCiConfig(content: string): ParsedCiConfig {
  if (content.trim() === '') return { errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], config: null, mergedYaml: null };
  const loaded = loadCiYaml(content);
  if ('error' in loaded) return { errors: [loaded.error], warnings: [], config: null, mergedYaml: null };
  if (loaded.hash.include !== undefined) return { errors: ['include config needs a project to be resolved'], warnings: [], config: null, mergedYaml: null };
  return parseCiHash(loaded.hash);
}

/** The configuration once its includes were merged in (includes.ts): checked and normalised. */
export function parseCiHash(raw: Hash): ParsedCiConfig {
  const result = (errors: string[], warnings: string[] = [], config: CiConfig | null = null, mergedYaml: string | null = null): ParsedCiConfig => ({ errors, warnings, config, mergedYaml });
  const errors: string[] = [];
  const warnings: string[] = [];

  const stagesValue = raw.stages ?? raw.types;
  let stages = DEFAULT_STAGES;
  if (stagesValue !== undefined && stagesValue !== null) {
    if (!isStringArray(stagesValue)) errors.push('stages config should be an array of strings');
    else stages = stagesValue;
  }
  stages = ['.pre', ...stages.filter((stage) => stage !== '.pre' && stage !== '.post'), '.post'];

  let variables: Record<string, string> = {};
  if (raw.variables !== undefined && raw.variables !== null) {
    const parsed = stringMap(raw.variables);
    if (!parsed) errors.push('variables config should be a hash of key value pairs, value can be a hash');
    else variables = parsed;
  }

  let defaults: Hash = {};
  for (const key of ['before_script', 'after_script', 'image', 'services', 'cache']) if (raw[key] !== undefined) defaults[key] = raw[key];
  if (raw.default !== undefined && raw.default !== null) {
    if (!isHash(raw.default)) errors.push('default config should be a hash');
    else {
      const unknown = Object.keys(raw.default).filter((key) => !DEFAULT_KEYS.includes(key));
      if (unknown.length) errors.push(`default config contains unknown keys: ${unknown.join(', ')}`);
      defaults = { ...defaults, ...raw.default };
    }
  }

  let workflowRules: CiRule[] | null = null;
  let autoCancel: CiAutoCancel | undefined;
  if (raw.workflow !== undefined && raw.workflow !== null) {
    if (!isHash(raw.workflow)) errors.push('workflow config should be a hash');
    else {
      autoCancel = parseAutoCancel(raw.workflow.auto_cancel, errors);
      workflowRules = parseRules(raw.workflow.rules, 'workflow', errors);
      for (const rule of workflowRules ?? []) {
        if (rule.when !== undefined && rule.when !== 'always' && rule.when !== 'never') errors.push(`workflow:rules:rule when unknown value: ${rule.when}`);
      }
    }
  }

  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(raw)) if (!ROOT_KEYWORDS.has(key)) entries.set(key, value);
  const resolved = resolveExtends(entries, errors);
  const parsedJobs: CiJobDefinition[] = [];
  for (const [name, entry] of resolved) {
    if (name.startsWith('.')) continue;
    if (name.trim() === '') {
      errors.push("jobs:job name can't be blank");
      continue;
    }
    if (!isHash(entry)) {
      errors.push(`jobs:${name} config should be a hash`);
      continue;
    }
    const job = parseJob(name, entry, defaults, stages, errors);
    if (job) {
      parsedJobs.push(job);
      const last = job.rules?.at(-1);
      if (last && last.if === undefined && last.when !== undefined && last.when !== 'never' && !workflowRules) {
        warnings.push(`jobs:${name} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings`);
      }
    }
  }
  if (parsedJobs.length === 0 && !errors.some((error) => error.startsWith('jobs'))) errors.push('jobs config should contain at least one visible job');
  const jobs = errors.length ? parsedJobs : expandParallelJobs(parsedJobs);
  if (errors.length === 0) checkReferences(jobs, stages, errors);
  const mergedYaml = stringify(Object.fromEntries([...Object.entries(raw).filter(([key]) => ROOT_KEYWORDS.has(key)), ...[...resolved].filter(([key]) => !key.startsWith('.'))]));
  if (errors.length) return result(errors, warnings, null, mergedYaml);
  return result(errors, warnings, { stages, variables, workflowRules, ...(autoCancel ? { autoCancel } : {}), jobs }, mergedYaml);
}

/** `workflow:auto_cancel` (`on_new_commit`, `on_job_failure`), checked with GitLab's messages. */
function parseAutoCancel(value: unknown, errors: string[]): CiAutoCancel | undefined {
  if (value === undefined || value === null) return undefined;
  const at = 'workflow:auto_cancel';
  if (!isHash(value)) {
    errors.push(`${at} config should be a hash`);
    return undefined;
  }
  const unknown = Object.keys(value).filter((key) => key !== 'on_new_commit' && key !== 'on_job_failure');
  if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
  const choice = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
    const given = value[key];
    if (given === undefined || given === null) return undefined;
    if (typeof given !== 'string') errors.push(`${at} ${key.replace(/_/g, ' ')} should be a string`);
    if (typeof given === 'string' && (allowed as readonly string[]).includes(given)) return given as T;
    errors.push(`${at} ${key.replace(/_/g, ' ')} must be one of: ${allowed.join(', ')}`);
    return undefined;
  };
  const onNewCommit = choice('on_new_commit', AUTO_CANCEL_ON_NEW_COMMIT);
  const onJobFailure = choice('on_job_failure', AUTO_CANCEL_ON_JOB_FAILURE);
  return { ...(onNewCommit ? { onNewCommit } : {}), ...(onJobFailure ? { onJobFailure } : {}) };
}
