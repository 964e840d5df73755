// GitLab's validations of a CI/CD variable (Ci::HasVariable, Ci::Maskable, HasEnvironmentScope), in
// its words: `{"message": {"key": ["can contain only letters, digits and '_'."]}}` and so on.
import { wildcardMatches } from '../../platform/patterns/wildcard.js';

/** Ci::HasVariable: a key of letters, digits and `_`, at most 255 characters. */
const KEY = /^[a-zA-Z0-9_]+$/;
/** Ci::Maskable (GitLab 14–16): one line, at least 8 characters of this alphabet, so the runner can find it in a log. */
export const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** Gitlab::Regex.environment_scope_regex. */
const SCOPE = /^[a-zA-Z0-9_/${}. *-]+$/;
export const VALUE_MAX = 10_000;

export interface VariableFields {
  key: string;
  value: string;
  masked: boolean;
  environmentScope: string;
}

export function variableErrors(fields: VariableFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => {
    errors[attribute] = [...(errors[attribute] ?? []), message];
  };
  if (fields.key === '') add('key', "can't be blank");
  else if (fields.key.length > 255) add('key', 'is too long (maximum is 255 characters)');
  else if (!KEY.test(fields.key)) add('key', "can contain only letters, digits and '_'.");
  if (fields.value.length > VALUE_MAX) add('value', `is too long (maximum is ${VALUE_MAX} characters)`);
  if (fields.masked && !MASKABLE.test(fields.value)) add('value', 'is invalid');
  if (fields.environmentScope === '') add('environment_scope', "can't be blank");
  else if (fields.environmentScope.length > 255) add('environment_scope', 'is too long (maximum is 255 characters)');
  else if (!SCOPE.test(fields.environmentScope)) add('environment_scope', "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");
  return errors;
}

/** Whether a variable's `environment_scope` applies to a job's environment (`*` is any run of characters); a job without one gets `*` only. */
export function scopeMatches(scope: string, environment: string | null): boolean {
  if (scope === '*') return true;
  return environment !== null && wildcardMatches(scope, environment);
}

/** Order of precedence among scopes of one key: `*` first, then wildcards, then exact names (the last wins). */
export function scopeRank(scope: string): number {
  return scope === '*' ? 0 : scope.includes('*') ? 1 : 2;
}
