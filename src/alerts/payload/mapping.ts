// Custom field mapping of the paid tier (GitLab's alert management documentation): stored as GitLab's
// `{field: {path: [...], type, label}}`, validated like GitLab's JSON schema.

export const MAPPABLE_FIELDS = ['title', 'description', 'start_time', 'end_time', 'service', 'monitoring_tool', 'hosts', 'severity', 'fingerprint', 'gitlab_environment_name'] as const;
export type MappableField = (typeof MAPPABLE_FIELDS)[number];
export const MAPPING_TYPES = ['string', 'datetime', 'array', 'number'] as const;

export interface MappingEntry {
  path: Array<string | number>;
  type: (typeof MAPPING_TYPES)[number];
  label?: string;
}

export type AttributeMapping = Partial<Record<MappableField, MappingEntry>>;

/** Problems with a mapping as sentences, or an empty list when it is valid. */
export function mappingProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['must be a JSON object'];
  const problems: string[] = [];
  for (const [field, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!(MAPPABLE_FIELDS as readonly string[]).includes(field)) {
      problems.push(`has an unknown field "${field}"`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    if (e === null || typeof e !== 'object' || Array.isArray(e)) {
      problems.push(`field "${field}" must be an object with path and type`);
      continue;
    }
    const extra = Object.keys(e).filter((key) => !['path', 'type', 'label'].includes(key));
    if (extra.length) problems.push(`field "${field}" has unknown properties ${extra.join(', ')}`);
    if (!Array.isArray(e.path) || e.path.length === 0 || !e.path.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s) && s >= 0))) {
      problems.push(`field "${field}" needs a path: a non-empty array of keys and indexes`);
    }
    if (typeof e.type !== 'string' || !(MAPPING_TYPES as readonly string[]).includes(e.type.toLowerCase())) problems.push(`field "${field}" needs a type: one of ${MAPPING_TYPES.join(', ')}`);
    if (e.label !== undefined && e.label !== null && typeof e.label !== 'string') problems.push(`field "${field}" label must be a string`);
  }
  return problems;
}

/** A stored mapping in its normal form (types lower-case). Call only on a valid mapping. */
export function normaliseMapping(value: Record<string, MappingEntry>): AttributeMapping {
  const result: AttributeMapping = {};
  for (const [field, entry] of Object.entries(value)) {
    result[field as MappableField] = { path: entry.path, type: entry.type.toLowerCase() as MappingEntry['type'], ...(entry.label ? { label: entry.label } : {}) };
  }
  return result;
}
