// Which jobs of a configuration a pipeline gets (GitLab's Gitlab::Ci::Build::Rules and
// Gitlab::Ci::Build::Policy::Refs): `rules` (the first rule whose `if` holds decides `when`,
// `allow_failure` and `variables`; none: the job is left out), otherwise `only`/`except` refs
// (default `only: [branches, tags]`). `workflow:rules` decide whether there is a pipeline at all.
import { RE2JS } from 're2js';
import type { CiConfig, CiJobDefinition, CiRefFilter, CiRule, JobWhen } from '../config/parse-config.js';
import { evaluateExpression } from '../config/expressions.js';
import { changesHold, existsHold, type RuleFiles } from './rule-files.js';

export interface PipelineContext {
  ref: string;
  tag: boolean;
  source: string;
  /** Variables known before the pipeline exists (predefined, YAML and pipeline variables). */
  variables: Record<string, string>;
  /** What `changes` and `exists` look at (without it, as in the lint, both hold). */
  files?: RuleFiles;
}

/** `only`/`except` source keywords and the pipeline sources they stand for. */
const SOURCE_KEYWORDS: Record<string, string[]> = {
  api: ['api'], external: ['external'], pipelines: ['pipeline'], pushes: ['push'], schedules: ['schedule'], triggers: ['trigger'], web: ['web'],
  merge_requests: ['merge_request_event'], external_pull_requests: ['external_pull_request_event'], chat: ['chat'],
};

function refMatches(pattern: string, context: PipelineContext): boolean {
  if (pattern === 'branches') return !context.tag && context.source !== 'merge_request_event';
  if (pattern === 'tags') return context.tag;
  if (SOURCE_KEYWORDS[pattern]) return SOURCE_KEYWORDS[pattern].includes(context.source);
  const withoutProject = pattern.includes('@') ? pattern.slice(0, pattern.indexOf('@')) : pattern;
  const regexp = /^\/(.*)\/([a-z]*)$/s.exec(withoutProject);
  if (regexp) {
    try {
      return RE2JS.compile(regexp[1], regexp[2].includes('i') ? RE2JS.CASE_INSENSITIVE : 0).matcher(context.ref).find();
    } catch {
      return false;
    }
  }
  return withoutProject === context.ref;
}

function filterMatches(filter: CiRefFilter, context: PipelineContext): boolean {
  const refs = filter.refs.length === 0 || filter.refs.some((pattern) => refMatches(pattern, context));
  const variables = filter.variables.length === 0 || filter.variables.some((expression) => evaluateExpression(expression, context.variables));
  const changes = filter.changes === undefined || changesHold(filter.changes, undefined, context.files, context.variables);
  return refs && variables && changes;
}

/** The first rule whose clauses (`if`, `changes`, `exists`) all hold, or null. */
export function matchingRule(rules: CiRule[], variables: Record<string, string>, files?: RuleFiles): CiRule | null {
  return rules.find((rule) =>
    (rule.if === undefined || evaluateExpression(rule.if, variables))
    && (rule.changes === undefined || changesHold(rule.changes, rule.compareTo, files, variables))
    && (rule.exists === undefined || existsHold(rule, files, variables))) ?? null;
}

export interface SelectedJob {
  definition: CiJobDefinition;
  when: JobWhen;
  allowFailure: boolean;
  variables: Record<string, string>;
}

/** Whether `workflow:rules` let the pipeline exist, and the variables their rule adds. */
export function workflowAllows(config: CiConfig, context: PipelineContext): { allowed: boolean; variables: Record<string, string> } {
  if (!config.workflowRules) return { allowed: true, variables: {} };
  const rule = matchingRule(config.workflowRules, { ...config.variables, ...context.variables }, context.files);
  if (!rule || rule.when === 'never') return { allowed: false, variables: {} };
  return { allowed: true, variables: rule.variables ?? {} };
}

export function selectJobs(config: CiConfig, context: PipelineContext): SelectedJob[] {
  const selected: SelectedJob[] = [];
  for (const definition of config.jobs) {
    const variables = { ...config.variables, ...definition.variables, ...context.variables };
    if (definition.rules) {
      const rule = matchingRule(definition.rules, variables, context.files);
      if (!rule || rule.when === 'never') continue;
      const when = rule.when ?? definition.when;
      selected.push({
        definition,
        when,
        allowFailure: rule.allowFailure ?? (when === 'manual' ? false : definition.allowFailure),
        variables: { ...definition.variables, ...(rule.variables ?? {}) },
      });
      continue;
    }
    const only = definition.only ?? { refs: ['branches', 'tags'], variables: [] };
    if (!filterMatches(only, context)) continue;
    if (definition.except && filterMatches(definition.except, context)) continue;
    selected.push({ definition, when: definition.when, allowFailure: definition.allowFailure, variables: definition.variables });
  }
  return selected;
}
