// Turn one accepted payload into alerts (GitLab's alert management documentation, the specification's Alert state
// table), all in ONE transaction so the 200 that follows means every alert is committed.
//
// Grouping is a database invariant: a partial unique index admits one unresolved alert per
// (project, fingerprint). A firing alert first bumps the open alert's counter with a conditional
// UPDATE; when none is open it inserts with ON CONFLICT DO NOTHING against that same index and, if
// another node won, counts on the winner, so two nodes racing on one PostgreSQL end with one open
// alert whose `events` counts every post.
import type { Deps } from '../platform/deps.js';
import type { Tx } from '../platform/db/statements.js';
import type { IntegrationRow } from './integration-row.js';
import { countEvent, environmentIdByName, insertAlertRow, recordedRecovery, resolveOpenAlert, type AlertRef, type NewAlertRow } from './ingestion-queries.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { enqueue } from '../platform/jobs/queue.js';
import { BadRequestError } from '../platform/errors.js';
import { RESOLVED, SEVERITY_CODE, STATUS_CODE } from './model.js';
import { parseGroupingKey, parsePayload, type ParsedPayload } from './payload/parse-payload.js';
import { normaliseMapping, type AttributeMapping, type MappingEntry } from './payload/mapping.js';
import type { NormalizedAlert } from './payload/normalized-alert.js';
import { alertBotId } from './alert-bot.js';
import type { IncidentSettings } from './incident-settings.js';
import { addAlertSystemNotes, alertNoteText } from './alert-notes.js';

export interface ProcessedAlert {
  iid: number;
  title: string;
}

export const JOB_CREATE_INCIDENT = 'alerts.create_incident';
export const JOB_CLOSE_INCIDENT = 'alerts.close_incident';

// Parsed once per integration row: a remembered row (receive-alert.ts) is reused by every request.
const mappings = new WeakMap<IntegrationRow, AttributeMapping | null>();

/** The integration's custom mapping, applied on the paid tier while it is active (§17). */
function mappingOf(integration: IntegrationRow): AttributeMapping | null {
  let mapping = mappings.get(integration);
  if (mapping === undefined) {
    mapping = integration.active === 1 && integration.payload_attribute_mapping !== '{}' ? normaliseMapping(JSON.parse(integration.payload_attribute_mapping) as Record<string, MappingEntry>) : null;
    mappings.set(integration, mapping);
  }
  return mapping;
}

/** The payload as the integration reads it. Throws BadRequestError for a webhook none of whose alerts can be kept. */
export function parseAlertPayload(deps: Deps, integration: IntegrationRow, body: Record<string, unknown>, now: number): ParsedPayload {
  const parsed = parsePayload(body, { now, tier: deps.config.tier, mapping: mappingOf(integration) });
  if (parsed.alerts.length === 0 && parsed.skipped > 0) throw new BadRequestError('no alert in the payload has a title and a start time');
  return parsed;
}

/**
 * The fingerprint of a payload that is exactly one firing alert that can group (the hot path's
 * case), or null; read without parsing the rest of the alert.
 */
export function firingFingerprint(deps: Deps, integration: IntegrationRow, body: Record<string, unknown>, now: number): string | null {
  const key = parseGroupingKey(body, { now, tier: deps.config.tier, mapping: mappingOf(integration) });
  return key !== null && key.fingerprint !== null && key.endedAt === null ? key.fingerprint : null;
}

/**
 * Told, inside the transaction, which alert is open for a fingerprint after a post counted or opened
 * one, and when a post resolved it (receive-alert.ts keeps this as a hint for the next posts; a
 * transaction that then fails leaves a hint that the database refuses, never a wrong count).
 */
export interface OpenAlertObserver {
  opened(fingerprint: string, alert: AlertRef): void;
  resolved(fingerprint: string): void;
}

/**
 * Everything that is not the hot path (receive-alert.ts): new alerts, recoveries, payloads of several
 * alerts, and the first alert after the integration was read afresh. The actor is the integration
 * whose key the request carried, read just now, with the project's incident `settings`.
 */
export async function processAlertPayload(deps: Deps, integration: IntegrationRow, parsed: ParsedPayload, now: number, settings: IncidentSettings, observer?: OpenAlertObserver): Promise<ProcessedAlert[]> {
  const projectId = Number(integration.project_id);
  const source = (alert: NormalizedAlert) =>
    parsed.source === 'prometheus' ? integration.name || 'Prometheus' : (alert.monitoringTool ?? (integration.name || 'Generic Alert Endpoint'));
  const botId = await alertBotId(deps);
  let enqueued = false;
  // Raw statements through `tx` only in here (a group-commit work): on SQLite this joins the turn's
  // batch, and anything else touching the database would throw (platform/db/README.md).
  const results = await deps.groupCommit.transaction(async (tx) => {
    const touched: ProcessedAlert[] = [];
    for (const alert of parsed.alerts) {
      const outcome = await processOne(deps, tx, projectId, alert, { now, botId, settings, source: source(alert), observer });
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
  observer: OpenAlertObserver | undefined;
}

interface Outcome {
  iid: number;
  title: string;
  enqueued: boolean;
}

async function processOne(deps: Deps, tx: Tx, projectId: number, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  if (alert.fingerprint !== null && alert.endedAt !== null) {
    // A recovery alert resolves the open alert of its fingerprint.
    const resolved = await resolveOpenAlert(tx, projectId, alert.fingerprint, alert.endedAt, context.now);
    if (resolved) {
      context.observer?.resolved(alert.fingerprint);
      const row = { id: Number(resolved.id), project_id: projectId };
      await addAlertSystemNotes(tx, context.now, row, context.botId, alertNoteText.recovery(context.source), alertNoteText.status('resolved'));
      const close = context.settings.autoCloseIncident && resolved.issue_id !== null;
      if (close) await enqueue(tx, deps.clock, JOB_CLOSE_INCIDENT, { alertId: row.id });
      return { iid: resolved.iid, title: resolved.title, enqueued: close };
    }
    // A repeat of a recovery already recorded (senders retry, Alertmanager re-sends) is the same
    // alert, not a new one.
    const repeat = await recordedRecovery(tx, projectId, alert.fingerprint, alert.endedAt);
    if (repeat) return { iid: repeat.iid, title: repeat.title, enqueued: false };
    // docs/decisions.md: an end time with no open alert stores the alert already resolved.
    return insertAlert(deps, tx, projectId, alert, context);
  }
  if (alert.fingerprint !== null) {
    const grouped = await countEvent(tx, projectId, alert.fingerprint);
    if (grouped) return opened(context, alert.fingerprint, grouped);
  }
  return insertAlert(deps, tx, projectId, alert, context);
}

async function insertAlert(deps: Deps, tx: Tx, projectId: number, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  const { now } = context;
  const iid = await nextInternalId(tx, projectId, 'alerts');
  const resolved = alert.endedAt !== null;
  const row: NewAlertRow = {
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
    environment_id: alert.environmentName === null ? null : await environmentIdByName(tx, projectId, alert.environmentName),
    payload: JSON.stringify(alert.payload ?? {}),
    now,
  };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await insertAlertRow(tx, row);
    if (inserted) {
      if (!resolved && alert.fingerprint !== null) context.observer?.opened(alert.fingerprint, inserted);
      const created = { id: Number(inserted.id), project_id: projectId };
      await addAlertSystemNotes(tx, now, created, context.botId, resolved ? alertNoteText.recovery(context.source) : alertNoteText.logged(context.source));
      await deps.domainEvents.publish(tx, { kind: 'alert.created', projectId, actorId: null, alertId: created.id });
      const incident = !resolved && context.settings.createIssue;
      if (incident) await enqueue(tx, deps.clock, JOB_CREATE_INCIDENT, { alertId: created.id });
      return { iid: inserted.iid, title: inserted.title, enqueued: incident };
    }
    // Lost a race to another node (PostgreSQL): count this post on the alert that won, unless that
    // one was resolved meanwhile too.
    const winner = await countEvent(tx, projectId, alert.fingerprint!);
    if (winner) return opened(context, alert.fingerprint!, winner);
  }
  throw new Error(`alert fingerprint ${alert.fingerprint} kept changing hands`);
}

/** A post counted on an open alert. */
function opened(context: Context, fingerprint: string, alert: AlertRef): Outcome {
  context.observer?.opened(fingerprint, alert);
  return { iid: alert.iid, title: alert.title, enqueued: false };
}
