// Create, change, re-key and delete alert integrations (gitlab-oauth-alerts.md §14.2, §17), for
// Maintainers and above (`admin_operations`). The key and endpoint identifier are random, never
// chosen by the caller; the identifier never changes.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../accounts/lookup.js';
import { requireLevel } from '../accounts/lookup.js';
import { ACCESS } from '../accounts/access-levels.js';
import { BadRequestError, ValidationError } from '../platform/errors.js';
import { inTransaction } from '../platform/db/database.js';
import { payloadTooLarge } from './payload/limits.js';
import { mappingProblems, normaliseMapping, type MappingEntry } from './payload/mapping.js';
import { incidentSettings } from './incident-settings.js';
import { findIntegration } from './finder.js';
import type { IntegrationRow } from './process-alert-payload.js';

export interface IntegrationInput {
  name?: string;
  active?: boolean;
  type?: 'http' | 'prometheus';
  /** A JSON text or an already parsed object. */
  payloadExample?: unknown;
  payloadAttributeMapping?: unknown;
}

export const newIntegrationToken = () => randomBytes(16).toString('hex');
const newEndpointIdentifier = () => randomBytes(8).toString('hex');

const TOOL_ACTIVE = 'cannot be enabled while the incident alerting tool link is active; deactivate it first';

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

function validate(deps: Deps, input: IntegrationInput, type: 'http' | 'prometheus'): Record<string, string> {
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

export async function createIntegration(deps: Deps, access: ProjectAccess, input: IntegrationInput): Promise<IntegrationRow> {
  requireLevel(access, ACCESS.maintainer);
  const type = input.type ?? 'http';
  if (input.name === undefined) throw new ValidationError({ name: ["can't be blank"] });
  const changes = validate(deps, input, type);
  const active = input.active ?? true;
  const projectId = access.project.id;
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    if (active && (await incidentSettings(trx, projectId)).alertingToolActive) throw new ValidationError({ active: [TOOL_ACTIVE] });
    const sameType = await trx.selectFrom('alert_management_http_integrations').select('id').where('project_id', '=', projectId).where('type_identifier', '=', type).limit(1).executeTakeFirst();
    // Prometheus has one fixed URL per project; the free tier has one HTTP endpoint (§14.2).
    if (sameType && (type === 'prometheus' || deps.config.tier === 'free')) throw new BadRequestError('Multiple integrations of a single type are not supported for this project');
    return trx
      .insertInto('alert_management_http_integrations')
      .values({
        project_id: projectId,
        name: changes.name,
        active: active ? 1 : 0,
        type_identifier: type,
        endpoint_identifier: newEndpointIdentifier(),
        token_sealed: deps.box.seal(newIntegrationToken()),
        payload_example: changes.payload_example ?? '{}',
        payload_attribute_mapping: changes.payload_attribute_mapping ?? '{}',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function updateIntegration(deps: Deps, access: ProjectAccess, id: number, input: Omit<IntegrationInput, 'type'>): Promise<IntegrationRow> {
  requireLevel(access, ACCESS.maintainer);
  const integration = await findIntegration(deps.db, access.project.id, id);
  const changes: Record<string, string | number> = validate(deps, input, integration.type_identifier);
  if (input.active !== undefined) {
    if (input.active && (await incidentSettings(deps.db, access.project.id)).alertingToolActive) throw new ValidationError({ active: [TOOL_ACTIVE] });
    changes.active = input.active ? 1 : 0;
  }
  return deps.db
    .updateTable('alert_management_http_integrations')
    .set({ ...changes, updated_at: deps.clock.now() })
    .where('id', '=', integration.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** "Reset key": a new random key; the old one stops working at once. */
export async function resetIntegrationToken(deps: Deps, access: ProjectAccess, id: number): Promise<IntegrationRow> {
  requireLevel(access, ACCESS.maintainer);
  const integration = await findIntegration(deps.db, access.project.id, id);
  return deps.db
    .updateTable('alert_management_http_integrations')
    .set({ token_sealed: deps.box.seal(newIntegrationToken()), updated_at: deps.clock.now() })
    .where('id', '=', integration.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteIntegration(deps: Deps, access: ProjectAccess, id: number): Promise<void> {
  requireLevel(access, ACCESS.maintainer);
  const integration = await findIntegration(deps.db, access.project.id, id);
  await deps.db.deleteFrom('alert_management_http_integrations').where('id', '=', integration.id).execute();
}
