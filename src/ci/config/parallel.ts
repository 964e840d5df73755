// `parallel:` (GitLab's Entry::Product::Parallel and Matrix, and Config::Normalizer): a job with
// `parallel: N` becomes N jobs `NAME 1/N` … `NAME N/N`; one with `parallel: matrix:` becomes a job per
// combination of its values, `NAME: [v1, v2]`, each with those values as its variables. The expansion
// happens on the parsed configuration, so everything after it (the reference checks, rules, pipeline
// creation, processing, the lint's jobs) sees only the instances. Names that refer to a parallel job
// (`needs`, `dependencies`) mean all its instances; `needs: [{job, parallel: {matrix}}]` picks some.

type Hash = Record<string, unknown>;
const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);

/** GitLab's PARALLEL_LIMIT: at most this many instances of one job. */
export const MAX_PARALLEL = 200;

/** A matrix as GitLab keeps it: each row maps its variables to their values (strings). */
export type CiMatrix = Array<Record<string, string[]>>;
export type CiParallel = { number: number } | { matrix: CiMatrix };
/** Where an instance stands among its job's instances (`CI_NODE_INDEX`, `CI_NODE_TOTAL`). */
export interface CiNode {
  index: number;
  total: number;
}

/** A matrix value is a string or an integer (GitLab's alphanumeric), or an array of them. */
const isMatrixScalar = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
const isMatrixValue = (value: unknown) => isMatrixScalar(value) || (Array.isArray(value) && value.every(isMatrixScalar));

function parseMatrix(value: unknown, at: string, errors: string[]): CiMatrix | null {
  if (!Array.isArray(value) || !value.every(isHash)) {
    errors.push(`${at} config should be an array of hashes`);
    return null;
  }
  const matrix: CiMatrix = [];
  let valid = true;
  for (const row of value) {
    const entries = Object.entries(row);
    if (!entries.every(([, item]) => isMatrixValue(item))) {
      errors.push(`${at}:variables config should be a hash of key value pairs, value can be an array`);
      valid = false;
    } else if (entries.length === 0) {
      errors.push(`${at}:variables config requires at least 1 items`);
      valid = false;
    } else matrix.push(Object.fromEntries(entries.map(([key, item]) => [key, (Array.isArray(item) ? item : [item]).map(String)])));
  }
  if (!valid) return null;
  const generated = matrix.reduce((sum, row) => sum + Object.values(row).reduce((product, values) => product * values.length, 1), 0);
  if (generated > MAX_PARALLEL) {
    errors.push(`${at} config generates too many jobs (maximum is ${MAX_PARALLEL})`);
    return null;
  }
  return matrix;
}

/**
 * `parallel:` of a job (a number or `matrix:`), or of a need (`matrix:` only), checked with GitLab's
 * messages at `at` (`jobs:NAME:parallel`).
 */
export function parseParallel(value: unknown, at: string, errors: string[], allowNumber = true): CiParallel | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (!allowNumber) errors.push(`${at} config cannot use "parallel: <number>".`);
    else if (!Number.isInteger(value)) errors.push(`${at} config must be an integer`);
    else if (value < 1) errors.push(`${at} config must be greater than or equal to 1`);
    else if (value > MAX_PARALLEL) errors.push(`${at} config must be less than or equal to ${MAX_PARALLEL}`);
    else return { number: value };
    return null;
  }
  if (!isHash(value)) {
    errors.push(`${at} should be an integer or a hash`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => key !== 'matrix');
  if (unknown.length) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
  if (value.matrix === undefined) {
    errors.push(`${at} config missing required keys: matrix`);
    return null;
  }
  const matrix = parseMatrix(value.matrix, `${at}:matrix`, errors);
  return matrix && !unknown.length ? { matrix } : null;
}

interface Instance {
  name: string;
  node: CiNode;
  variables: Record<string, string>;
}

/** Every combination of a row's values, the first variable's values varying slowest (Ruby's `product`). */
function combinations(row: Record<string, string[]>): Array<Record<string, string>> {
  return Object.entries(row).reduce<Array<Record<string, string>>>(
    (partial, [key, values]) => partial.flatMap((combination) => values.map((value) => ({ ...combination, [key]: value }))),
    [{}],
  );
}

/** The instances a job's `parallel:` makes, named as GitLab names them. */
function instancesOf(name: string, parallel: CiParallel): Instance[] {
  if ('number' in parallel) {
    const total = parallel.number;
    return Array.from({ length: total }, (_, i) => ({ name: `${name} ${i + 1}/${total}`, node: { index: i + 1, total }, variables: {} }));
  }
  const all = parallel.matrix.flatMap(combinations);
  return all.map((variables, i) => ({ name: `${name}: [${Object.values(variables).join(', ')}]`, node: { index: i + 1, total: all.length }, variables }));
}

/** What the expansion reads and rewrites of a job definition. */
export interface ParallelizableJob {
  name: string;
  variables: Record<string, string>;
  parallel?: CiParallel;
  node?: CiNode;
  needs: Array<{ job: string; parallel?: CiParallel }> | null;
  dependencies: string[] | null;
}

/**
 * The jobs with every parallel job replaced by its instances (in its place, in instance order) and the
 * names in `needs` and `dependencies` that refer to one replaced by the instances meant. A matrix
 * value overrides the job's variable of the same name. As in GitLab, a later job of the same name
 * replaces an earlier one.
 */
export function expandParallelJobs<J extends ParallelizableJob>(jobs: J[]): J[] {
  const instances = new Map<string, Instance[]>();
  for (const job of jobs) if (job.parallel) instances.set(job.name, instancesOf(job.name, job.parallel));
  if (instances.size === 0) return jobs;
  const expanded = new Map<string, J>();
  for (const { parallel, ...job } of jobs) {
    const needs = job.needs?.flatMap(({ parallel: chosen, ...need }) => {
      const all = instances.get(need.job);
      if (!all) return [need];
      return (chosen ? instancesOf(need.job, chosen) : all).map((instance) => ({ ...need, job: instance.name }));
    }) ?? null;
    const dependencies = job.dependencies?.flatMap((name) => instances.get(name)?.map((instance) => instance.name) ?? [name]) ?? null;
    const rewritten = { ...job, needs, dependencies } as J;
    if (!parallel) {
      expanded.set(job.name, rewritten);
      continue;
    }
    for (const instance of instances.get(job.name) ?? []) {
      expanded.set(instance.name, { ...rewritten, name: instance.name, node: instance.node, variables: { ...job.variables, ...instance.variables } });
    }
  }
  return [...expanded.values()];
}
