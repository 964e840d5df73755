// `include:` (GitLab's Gitlab::Ci::Config::External): the files a configuration includes are read
// and deep-merged in order, the including file's own keys last (they win), each included file's
// own includes first, in the context of the project and commit it came from. `local` reads the
// pipeline's project at its commit, `project`/`file`/`ref` another project the pipeline's user may
// read the code of. `remote` is refused: Kiln fetches nothing from other servers. `template` reads
// Kiln's own templates (those `GET /templates/gitlab_ci_ymls` lists), not GitLab's. Bounded as GitLab bounds it: 150 files in all (a cycle ends
// there), and the files together at most MAX_TOTAL_YAML_BYTES. Errors are GitLab's words.
import { evaluateExpression } from './expressions.js';
import { interpolateInputs } from './inputs.js';
import { expandVariables } from '../variables.js';
import { localWildcard } from './glob.js';
import { ciYmlTemplate } from '../../templates/api.js';
import { deepMerge, isHash, loadCiYaml, parseCiHash, MAX_YAML_BYTES, type Hash, type ParsedCiConfig } from './parse-config.js';

export const MAX_INCLUDES = 150;
/** GitLab's ci_max_total_yaml_size_bytes, smaller: Kiln keeps every file in memory while it merges. */
export const MAX_TOTAL_YAML_BYTES = 10 * MAX_YAML_BYTES;

export interface IncludeProject {
  id: number;
  fullPath: string;
}

/** What reading includes needs from the repositories, as the pipeline's user. */
export interface IncludeReader {
  /** A file's text at a commit; null when there is none; `tooBig` over MAX_YAML_BYTES (not read). */
  read(project: IncludeProject, sha: string, path: string): Promise<string | null | { tooBig: true }>;
  /** A project by full path whose code the user may read; null when not found or not readable. */
  project(fullPath: string): Promise<IncludeProject | null>;
  /** The commit a ref names in a project (`HEAD`: its default branch); null when none. */
  commit(project: IncludeProject, ref: string): Promise<string | null>;
  /** The paths of a commit's files (bounded), for `local` wildcards. */
  files(project: IncludeProject, sha: string): Promise<string[]>;
}

export interface IncludeContext {
  reader: IncludeReader;
  /** The project and commit the including file belongs to (null for `POST /ci/lint`: no project). */
  project: IncludeProject | null;
  sha: string | null;
  /** The variables `include:rules:if` sees (the pipeline's; empty for the lint). */
  variables: Record<string, string>;
}

/** GitLab's `includes` of the project lint (Context#includes). */
export interface IncludeMetadata {
  type: 'local' | 'file' | 'remote' | 'template' | 'component';
  location: string;
  blob: string | null;
  raw: string | null;
  extra: Record<string, unknown>;
  context_project: string | null;
  context_sha: string | null;
}

export class IncludeError extends Error {}

const FILE_SUBKEYS = ['local', 'project', 'remote', 'template', 'artifact', 'component'];
const ALLOWED_KEYS = new Set(['local', 'file', 'remote', 'project', 'ref', 'integrity', 'rules', 'inputs', 'template', 'artifact', 'job', 'component']);
const YAML_EXTENSION = /.+\.(yml|yaml)$/i;
const TEMPLATE_SUFFIX = '.gitlab-ci.yml';

interface State {
  count: number;
  bytes: number;
  includes: IncludeMetadata[];
  baseUrl: string;
}

interface Fetched {
  text: string;
  context: IncludeContext;
  metadata: IncludeMetadata;
}

const stripSlashes = (path: string) => path.replace(/^\/+/, '');
const isUrl = (text: string) => /^https?:\/\/[^\s/]+/i.test(text);

/** The include entries of a file, each a hash with one file (GitLab's Normalizer and its file: arrays). */
function normalize(include: unknown): Hash[] {
  const list = typeof include === 'string' ? [include] : Array.isArray(include) ? include : isHash(include) ? [include] : null;
  if (!list) throw new IncludeError('include config should be an array or a string');
  const entries: Hash[] = [];
  for (const item of list) {
    if (typeof item === 'string') {
      entries.push(isUrl(item) ? { remote: item } : { local: item });
      continue;
    }
    if (!isHash(item)) throw new IncludeError('include config should be a hash or a string');
    const unknown = Object.keys(item).filter((key) => !ALLOWED_KEYS.has(key));
    if (unknown.length) throw new IncludeError(`include config contains unknown keys: ${unknown.join(', ')}`);
    if (item.project !== undefined && Array.isArray(item.file)) entries.push(...item.file.map((file) => ({ ...item, file })));
    else entries.push(item);
  }
  return entries;
}

/** `include:rules`: the first rule whose `if` holds decides; `when: never` or none holding leaves the file out. */
function rulesAllow(entry: Hash, variables: Record<string, string>): boolean {
  if (entry.rules === undefined) return true;
  if (!Array.isArray(entry.rules)) throw new IncludeError('include rules should be an array of hashes');
  const rule = entry.rules.find((item) => isHash(item) && (typeof item.if !== 'string' || evaluateExpression(item.if, variables)));
  return isHash(rule) && rule.when !== 'never';
}

function checkExtension(location: unknown): string {
  if (typeof location !== 'string') throw new IncludeError(`Included file \`${JSON.stringify(location)}\` needs to be a string`);
  if (!YAML_EXTENSION.test(location.split('/').pop() ?? '')) throw new IncludeError(`Included file \`${location}\` does not have YAML extension!`);
  return location;
}

function blobUrls(state: State, project: IncludeProject, sha: string, path: string) {
  const base = `${state.baseUrl.replace(/\/$/, '')}/${project.fullPath}`;
  return { blob: `${base}/-/blob/${sha}/${path}`, raw: `${base}/-/raw/${sha}/${path}` };
}

/** The host (and port) components are addressed by: GitLab's CI_SERVER_FQDN. */
const serverFqdn = (baseUrl: string) => new URL(baseUrl).host;
const COMPONENT_TEMPLATES = (name: string) => [`templates/${name}.yml`, `templates/${name}/template.yml`];

/**
 * `component: <fqdn>/<project path>/<name>@<version>`, a project's own component (GitLab's
 * InstancePath): `templates/<name>.yml` or `templates/<name>/template.yml` of the project at a tag,
 * branch or commit, read as the pipeline's user. Kiln has no CI/CD catalog, so `~latest` and
 * partial versions are GitLab's answer for a project that is not a catalog resource.
 */
async function fetchComponent(address: unknown, context: IncludeContext, state: State, base: Pick<IncludeMetadata, 'context_project' | 'context_sha'>): Promise<Fetched> {
  if (typeof address !== 'string') throw new IncludeError(`Included file \`${JSON.stringify(address)}\` needs to be a string`);
  if (!context.project) throw new IncludeError('Unable to use components outside of a project context');
  const failed = (reason: string) => new IncludeError(`Component '${address}' - ${reason}`);
  const prefix = `${serverFqdn(state.baseUrl)}/`;
  if (!address.includes('@') || !address.startsWith(prefix)) throw failed('the component path is not supported');
  const [fullPath, version] = [address.slice(prefix.length, address.indexOf('@')), address.slice(address.indexOf('@') + 1)];
  const slash = fullPath.lastIndexOf('/');
  const project = slash > 0 && !fullPath.startsWith('/') ? await context.reader.project(fullPath.slice(0, slash)) : null;
  if (!project) throw failed("project does not exist or you don't have sufficient permissions");
  if (version === '~latest') throw failed('The ~latest version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.');
  if (/^\d+(\.\d+)?$/.test(version)) throw failed('The partial semantic version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.');
  const sha = await context.reader.commit(project, version);
  const name = fullPath.slice(slash + 1);
  for (const path of sha && name ? COMPONENT_TEMPLATES(name) : []) {
    const text = await context.reader.read(project, sha!, path);
    if (text === null) continue;
    if (typeof text !== 'string') throw new IncludeError(`\`${address}\`: The parsed YAML is too big`);
    if (text.trim() === '') break;
    return {
      text, context: { ...context, project, sha: sha! },
      metadata: { type: 'component', location: address, blob: blobUrls(state, project, sha!, path).blob, raw: null, extra: {}, ...base },
    };
  }
  throw failed('content not found');
}

async function fetchFile(entry: Hash, context: IncludeContext, state: State): Promise<Fetched> {
  const kinds = FILE_SUBKEYS.filter((key) => (key === 'project' ? entry.project !== undefined && entry.file !== undefined : entry[key] !== undefined));
  if (kinds.length === 0) {
    throw new IncludeError(`\`${JSON.stringify(entry)}\` does not have a valid subkey for include. Valid subkeys are: \`${FILE_SUBKEYS.join('`, `')}\``);
  }
  if (kinds.length > 1) throw new IncludeError(`Each include must use only one of: \`${FILE_SUBKEYS.join('`, `')}\``);
  const base = { context_project: context.project?.fullPath ?? null, context_sha: context.sha };
  const tooBig = (location: string) => new IncludeError(`\`${location}\`: The parsed YAML is too big`);
  switch (kinds[0]) {
    case 'local': {
      const location = stripSlashes(checkExtension(entry.local));
      if (!context.project || !context.sha) throw new IncludeError(`Local file \`${location}\` does not have project!`);
      const text = await context.reader.read(context.project, context.sha, location);
      if (text === null) throw new IncludeError(`Local file \`${location}\` does not exist!`);
      if (typeof text !== 'string') throw tooBig(location);
      if (text.trim() === '') throw new IncludeError(`Local file \`${location}\` is empty!`);
      return { text, context, metadata: { type: 'local', location, ...blobUrls(state, context.project, context.sha, location), extra: {}, ...base } };
    }
    case 'project': {
      const location = stripSlashes(checkExtension(entry.file));
      const name = String(Array.isArray(entry.project) ? entry.project[0] : entry.project).toLowerCase();
      const ref = entry.ref === undefined ? 'HEAD' : String(entry.ref);
      const project = await context.reader.project(name);
      if (!project) throw new IncludeError(`Project \`${name}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`);
      const sha = await context.reader.commit(project, ref);
      if (!sha) throw new IncludeError(`Project \`${name}\` reference \`${ref}\` does not exist!`);
      const text = await context.reader.read(project, sha, location);
      if (text === null) throw new IncludeError(`Project \`${name}\` file \`${location}\` does not exist!`);
      if (typeof text !== 'string') throw tooBig(location);
      if (text.trim() === '') throw new IncludeError(`Project \`${name}\` file \`${location}\` is empty!`);
      return {
        text, context: { ...context, project, sha },
        metadata: { type: 'file', location, ...blobUrls(state, project, sha, location), extra: { project: name, ref }, ...base },
      };
    }
    case 'remote': {
      const location = checkExtension(entry.remote);
      throw new IncludeError(`Remote file \`${location}\` could not be fetched: Kiln does not fetch includes from other servers`);
    }
    case 'template': {
      const location = checkExtension(entry.template);
      if (!location.endsWith(TEMPLATE_SUFFIX)) throw new IncludeError(`Template file \`${location}\` is not a valid location!`);
      // Kiln's own templates, by the key they are listed under (`Go.gitlab-ci.yml` is `Go`); GitLab's
      // names Kiln does not ship (`Auto-DevOps`, `Jobs/Build`) are unknown, as an unknown one is to GitLab.
      const text = ciYmlTemplate(location.slice(0, -TEMPLATE_SUFFIX.length));
      if (text === undefined) throw new IncludeError(`Included file \`${location}\` is empty or does not exist!`);
      // A template is read in the including file's context; it has no blob, and no raw address to
      // read it at (GitLab's points into its own source tree).
      return { text, context, metadata: { type: 'template', location, blob: null, raw: null, extra: {}, ...base } };
    }
    case 'component':
      return fetchComponent(entry.component, context, state, base);
    default:
      throw new IncludeError(`\`${kinds[0]}\` includes are not supported by Kiln`);
  }
}

/** GitLab's VariablesExpander: `$VAR` in an include's locations, from the pipeline's variables. */
function expandLocations(entry: Hash, context: IncludeContext, state: State): Hash {
  const variables = { CI_SERVER_FQDN: serverFqdn(state.baseUrl), ...context.variables };
  const expanded: Hash = { ...entry };
  for (const key of ['local', 'file', 'project', 'ref', 'component', 'remote', 'template']) {
    const value = entry[key];
    if (typeof value === 'string') expanded[key] = expandVariables(value, variables);
    else if (Array.isArray(value)) expanded[key] = value.map((item) => (typeof item === 'string' ? expandVariables(item, variables) : item));
  }
  return expanded;
}

/** `local: configs/*.yml`: every file of the commit the pattern matches, in path order (GitLab's LocationExpander). */
async function expandWildcards(entries: Hash[], context: IncludeContext): Promise<Hash[]> {
  if (!entries.some((entry) => typeof entry.local === 'string' && entry.local.includes('*'))) return entries;
  const paths = context.project && context.sha ? await context.reader.files(context.project, context.sha) : [];
  return entries.flatMap((entry) => {
    if (typeof entry.local !== 'string' || !entry.local.includes('*')) return [entry];
    const matches = localWildcard(stripSlashes(entry.local));
    return paths.filter(matches).map((path) => ({ local: path }));
  });
}

async function expand(hash: Hash, context: IncludeContext, state: State): Promise<Hash> {
  if (hash.include === undefined || hash.include === null) {
    const { include: _, ...rest } = hash;
    return rest;
  }
  let merged: Hash = {};
  const allowed = normalize(hash.include).filter((entry) => rulesAllow(entry, context.variables));
  for (const entry of await expandWildcards(allowed.map((item) => expandLocations(item, context, state)), context)) {
    if (state.count >= MAX_INCLUDES) throw new IncludeError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
    state.count += 1;
    const file = await fetchFile(entry, context, state);
    state.bytes += Buffer.byteLength(file.text);
    if (state.bytes > MAX_TOTAL_YAML_BYTES) throw new IncludeError('Total size of combined CI/CD configuration is too big');
    state.includes.push(file.metadata);
    const loaded = loadCiYaml(file.text);
    if ('error' in loaded) throw new IncludeError(`\`${file.metadata.location}\`: ${loaded.error}`);
    const interpolated = interpolateInputs(loaded, entry.inputs, context.variables);
    if ('error' in interpolated) throw new IncludeError(`\`${file.metadata.location}\`: ${interpolated.error}`);
    merged = deepMerge(merged, await expand(interpolated.hash, file.context, state));
  }
  const { include: _, ...own } = hash;
  return deepMerge(merged, own);
}

/** The configuration with its includes merged in, or the first include error. */
export async function resolveIncludes(hash: Hash, context: IncludeContext, baseUrl: string): Promise<{ hash: Hash; includes: IncludeMetadata[] } | { error: string; includes: IncludeMetadata[] }> {
  const state: State = { count: 0, bytes: 0, includes: [], baseUrl };
  try {
    return { hash: await expand(hash, context, state), includes: state.includes };
  } catch (error) {
    if (error instanceof IncludeError) return { error: error.message, includes: state.includes };
    throw error;
  }
}

/** A `.gitlab-ci.yml` read, its includes merged in, then checked: what pipelines and the lint use. */
export async function parseCiConfigWithIncludes(content: string, context: IncludeContext, baseUrl: string): Promise<ParsedCiConfig & { includes: IncludeMetadata[] }> {
  const failed = (error: string, includes: IncludeMetadata[] = []) => ({ errors: [error], warnings: [], config: null, mergedYaml: null, includes });
  if (content.trim() === '') return failed('Please provide content of .gitlab-ci.yml');
  const loaded = loadCiYaml(content);
  if ('error' in loaded) return failed(loaded.error);
  // The pipeline's own file may declare inputs too: they take their defaults.
  const interpolated = interpolateInputs(loaded, undefined, context.variables);
  if ('error' in interpolated) return failed(interpolated.error);
  const resolved = await resolveIncludes(interpolated.hash, context, baseUrl);
  if ('error' in resolved) return failed(resolved.error, resolved.includes);
  return { ...parseCiHash(resolved.hash), includes: resolved.includes };
}
