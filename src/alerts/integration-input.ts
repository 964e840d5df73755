// Validation shared by creating and changing alert integrations (GitLab's alert management documentation):
// the key and endpoint identifier are random, never chosen by the caller; custom mapping is paid-tier
// and HTTP-only; the sample payload must be valid JSON within the endpoint's own limits.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { payloadTooLarge } from './payload/limits.js';
import { mappingProblems, normaliseMapping, type MappingEntry } from './payload/mapping.js';

export interface IntegrationInput {
  name?: string;
  active?: boolean;
  type?: 'http' | 'prometheus';
  /** A JSON text or an already parsed object. */
  payloadExample?: unknown;
  payloadAttributeMapping?: unknown;
}

export const newIntegrationToken = () => randomBytes(16).toString('hex');
export const newEndpointIdentifier = () => randomBytes(8).toString('hex');

export const TOOL_ACTIVE = 'cannot be enabled while the incident alerting tool link is active; deactivate it first';

function parseExample(value: unknown): string {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      throw new ValidationError({ payload_example: ['Invalid JSON string'] });
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError({ payload_example: ['must be a JSON object'] });
  const text = JSON.stringify(parsed);
  if (payloadTooLarge(text, parsed)) throw new ValidationError({ payload_example: ['JSON is too big'] });
  return text;
}

export function validateIntegrationInput(deps: Deps, input: IntegrationInput, type: 'http' | 'prometheus'): Record<string, string> {
  const changes: Record<string, string> = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') throw new ValidationError({ name: ["can't be blank"] });
    if (name.length > 255) throw new ValidationError({ name: ['is too long (maximum is 255 characters)'] });
    changes.name = name;
  }
  const custom = input.payloadExample !== undefined || input.payloadAttributeMapping !== undefined;
  if (custom && deps.config.tier === 'free') throw new ValidationError({ payload_attribute_mapping: ['custom field mapping needs the premium or ultimate tier'] });
  if (custom && type === 'prometheus') throw new ValidationError({ payload_attribute_mapping: ['custom field mapping applies to HTTP integrations only'] });
  if (input.payloadExample !== undefined) changes.payload_example = parseExample(input.payloadExample);
  if (input.payloadAttributeMapping !== undefined) {
    let mapping = input.payloadAttributeMapping;
    if (typeof mapping === 'string') {
      try {
        mapping = mapping.trim() === '' ? {} : JSON.parse(mapping);
      } catch {
        throw new ValidationError({ payload_attribute_mapping: ['Invalid JSON string'] });
      }
    }
    const problems = mappingProblems(mapping);
    if (problems.length) throw new ValidationError({ payload_attribute_mapping: problems });
    changes.payload_attribute_mapping = JSON.stringify(normaliseMapping(mapping as Record<string, MappingEntry>));
  }
  return changes;
}

