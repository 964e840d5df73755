// Turn one accepted payload into alerts (gitlab-oauth-alerts.md §19, the specification's Alert state
// table), all in ONE transaction so the 200 that follows means every alert is committed.
//
// Grouping is a database invariant: a partial unique index admits one unresolved alert per
// (project, fingerprint). A firing alert first bumps the open alert's counter with a conditional
// UPDATE; when none is open it inserts with ON CONFLICT … DO UPDATE against that same index, so two
// nodes racing on one PostgreSQL end with one open alert whose `events` counts every post.
import type { Selectable, Transaction } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../platform/db/schema.js';
import type { AlertIntegrationsTable } from '../platform/db/tables/alerts.js';
import { inTransaction } from '../platform/db/database.js';
import { environmentIdByName, groupIntoOpenAlert, insertAlertRow, recordedRecovery, resolveOpenAlert, type IntegrationGuard } from './ingestion-queries.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { enqueue } from '../platform/jobs/queue.js';
import { BadRequestError } from '../platform/errors.js';
import { RESOLVED, SEVERITY_CODE, STATUS_CODE } from './model.js';
import { parsePayload, type ParsedPayload } from './payload/parse-payload.js';
import { normaliseMapping, type MappingEntry } from './payload/mapping.js';
import type { NormalizedAlert } from './payload/normalized-alert.js';
import { alertBotId } from './alert-bot.js';
import type { IncidentSettings } from './incident-settings.js';
import { addAlertSystemNote, alertNoteText } from './alert-notes.js';

export type IntegrationRow = Selectable<AlertIntegrationsTable>;

export interface ProcessedAlert {
  iid: number;
  title: string;
}

export const JOB_CREATE_INCIDENT = 'alerts.create_incident';
export const JOB_CLOSE_INCIDENT = 'alerts.close_incident';

/**
 * The payload as the integration reads it: its custom mapping applies on the paid tier while it is
 * active (§17). Throws BadRequestError for an Alertmanager webhook none of whose alerts can be kept.
 */
export function parseAlertPayload(deps: Deps, integration: IntegrationRow, body: Record<string, unknown>, now: number): ParsedPayload {
  const mapping = integration.active === 1 && integration.payload_attribute_mapping !== '{}' ? normaliseMapping(JSON.parse(integration.payload_attribute_mapping) as Record<string, MappingEntry>) : null;
  const parsed = parsePayload(body, { now, tier: deps.config.tier, mapping });
  if (parsed.alerts.length === 0 && parsed.skipped > 0) throw new BadRequestError('no alert in the payload has a title and a start time');
  return parsed;
}

/** The fingerprint of a payload that is exactly one firing alert that can group: the hot path's case. */
export function singleFiringFingerprint(parsed: ParsedPayload): string | null {
  const [alert] = parsed.alerts;
  return parsed.alerts.length === 1 && alert.fingerprint !== null && alert.endedAt === null ? alert.fingerprint : null;
}

/**
 * Everything that is not the hot path (receive-alert.ts): new alerts, recoveries, payloads of several
 * alerts, and the first alert after the integration was read afresh. The actor is the integration
 * whose key the request carried, read just now (`guard`), with the project's incident `settings`.
 */
export async function processAlertPayload(deps: Deps, guard: IntegrationGuard, parsed: ParsedPayload, now: number, settings: IncidentSettings): Promise<ProcessedAlert[]> {
  const { integration } = guard;
  const source = (alert: NormalizedAlert) =>
    parsed.source === 'prometheus' ? integration.name || 'Prometheus' : (alert.monitoringTool ?? (integration.name || 'Generic Alert Endpoint'));
  const botId = await alertBotId(deps);
  let enqueued = false;
  const results = await inTransaction(deps.db, async (trx) => {
    const touched: ProcessedAlert[] = [];
    for (const alert of parsed.alerts) {
      const outcome = await processOne(deps, trx, guard, alert, { now, botId, settings, source: source(alert) });
      enqueued ||= outcome.enqueued;
      touched.push({ iid: outcome.iid, title: outcome.title });
    }
    return touched;
  });
  if (enqueued) deps.pokeWorker();
  deps.metrics.alertsIngested.inc({ outcome: 'accepted' }, results.length);
  return results;
}

interface Context {
  now: number;
  botId: number;
  settings: IncidentSettings;
  source: string;
}

interface Outcome {
  iid: number;
  title: string;
  enqueued: boolean;
}

async function processOne(deps: Deps, trx: Transaction<DB>, guard: IntegrationGuard, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  const projectId = Number(guard.integration.project_id);
  if (alert.fingerprint !== null && alert.endedAt !== null) {
    // A recovery alert resolves the open alert of its fingerprint.
    const resolved = await resolveOpenAlert(trx, projectId, alert.fingerprint, alert.endedAt, context.now);
    if (resolved) {
      const row = { id: Number(resolved.id), project_id: projectId };
      await addAlertSystemNote(trx, context.now, row, context.botId, alertNoteText.recovery(context.source));
      await addAlertSystemNote(trx, context.now, row, context.botId, alertNoteText.status('resolved'));
      const close = context.settings.autoCloseIncident && resolved.issue_id !== null;
      if (close) await enqueue(trx, deps.clock, JOB_CLOSE_INCIDENT, { alertId: row.id });
      return { iid: resolved.iid, title: resolved.title, enqueued: close };
    }
    // A repeat of a recovery already recorded (senders retry, Alertmanager re-sends) is the same
    // alert, not a new one.
    const repeat = await recordedRecovery(trx, projectId, alert.fingerprint, alert.endedAt);
    if (repeat) return { iid: repeat.iid, title: repeat.title, enqueued: false };
    // DECISIONS.md: an end time with no open alert stores the alert already resolved.
    return insertAlert(deps, trx, projectId, alert, context);
  }
  if (alert.fingerprint !== null) {
    const grouped = await groupIntoOpenAlert(deps.reads, trx, guard, alert.fingerprint);
    if (grouped) return { ...grouped, enqueued: false };
  }
  return insertAlert(deps, trx, projectId, alert, context);
}

async function insertAlert(deps: Deps, trx: Transaction<DB>, projectId: number, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  const { now } = context;
  const iid = await nextInternalId(trx, projectId, 'alerts');
  const resolved = alert.endedAt !== null;
  const row = await insertAlertRow(trx, {
    project_id: projectId,
    iid,
    status: resolved ? RESOLVED : STATUS_CODE.triggered,
    severity: SEVERITY_CODE[alert.severity],
    title: alert.title,
    description: alert.description,
    service: alert.service,
    monitoring_tool: alert.monitoringTool,
    hosts: JSON.stringify(alert.hosts),
    started_at: alert.startedAt,
    ended_at: alert.endedAt,
    fingerprint: alert.fingerprint,
    environment_name: alert.environmentName,
    environment_id: alert.environmentName === null ? null : await environmentIdByName(trx, projectId, alert.environmentName),
    payload: JSON.stringify(alert.payload ?? {}),
    now,
  });
  // Lost a race to another request or node: this post was counted on the alert that won.
  if (row.iid !== iid) return { iid: row.iid, title: row.title, enqueued: false };
  const created = { id: Number(row.id), project_id: projectId };
  await addAlertSystemNote(trx, now, created, context.botId, resolved ? alertNoteText.recovery(context.source) : alertNoteText.logged(context.source));
  const incident = !resolved && context.settings.createIssue;
  if (incident) await enqueue(trx, deps.clock, JOB_CREATE_INCIDENT, { alertId: created.id });
  return { iid: row.iid, title: row.title, enqueued: incident };
}
