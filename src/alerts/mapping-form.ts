// The custom mapping form (premium+; GitLab's alert management documentation): every leaf path of the sample
// payload is offered for each alert field, and the choice is saved as GitLab's mapping format.
import { html, type Html } from '../platform/web/html.js';
import { MAPPABLE_FIELDS, type AttributeMapping, type MappableField, type MappingEntry } from './payload/mapping.js';
import { dig } from './payload/values.js';

const FIELD_TYPES: Record<MappableField, MappingEntry['type']> = {
  title: 'string', description: 'string', start_time: 'datetime', end_time: 'datetime', service: 'string',
  monitoring_tool: 'string', hosts: 'array', severity: 'string', fingerprint: 'string', gitlab_environment_name: 'string',
};

/** Every path to a scalar or an array in a sample payload, at most 500. */
export function samplePaths(sample: unknown): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [];
  const walk = (node: unknown, path: Array<string | number>) => {
    if (paths.length >= 500) return;
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
      return;
    }
    if (path.length) paths.push(path);
    if (Array.isArray(node)) node.slice(0, 20).forEach((child, index) => (child !== null && typeof child === 'object' ? walk(child, [...path, index]) : undefined));
  };
  walk(sample, []);
  return paths;
}

export const pathLabel = (path: Array<string | number>) => path.join('.');

/** Mapped paths that the current sample no longer has: the mapping must be redone. */
export function staleMapping(sample: unknown, mapping: AttributeMapping): MappableField[] {
  return (Object.entries(mapping) as Array<[MappableField, MappingEntry]>).filter(([, entry]) => dig(sample, entry.path) === undefined).map(([name]) => name);
}

export function mappingFormFields(sample: unknown, mapping: AttributeMapping): Html {
  const options = samplePaths(sample);
  return html`${MAPPABLE_FIELDS.map((name) => {
    const chosen = mapping[name] ? JSON.stringify(mapping[name]!.path) : '';
    return html`<label for="map_${name}">${name}</label>
      <select id="map_${name}" name="map_${name}">
        <option value="">(standard key)</option>
        ${options.map((path) => html`<option value="${JSON.stringify(path)}"${JSON.stringify(path) === chosen ? html` selected` : ''}>${pathLabel(path)}</option>`)}
      </select>`;
  })}`;
}

/** The submitted selects as a mapping; paths must be ones the sample offers. */
export function mappingFromForm(sample: unknown, form: Record<string, string | string[]>): AttributeMapping {
  const allowed = new Set(samplePaths(sample).map((path) => JSON.stringify(path)));
  const mapping: AttributeMapping = {};
  for (const name of MAPPABLE_FIELDS) {
    const value = form[`map_${name}`];
    if (typeof value !== 'string' || value === '' || !allowed.has(value)) continue;
    const path = JSON.parse(value) as Array<string | number>;
    mapping[name] = { path, type: FIELD_TYPES[name], label: pathLabel(path) };
  }
  return mapping;
}
