// Turn one accepted payload into alerts (gitlab-oauth-alerts.md §19, the specification's Alert state
// table), all in ONE transaction so the 200 that follows means every alert is committed.
//
// Grouping is a database invariant: a partial unique index admits one unresolved alert per
// (project, fingerprint). A firing alert first bumps the open alert's counter with a conditional
// UPDATE; when none is open it inserts with ON CONFLICT … DO UPDATE against that same index, so two
// nodes racing on one PostgreSQL end with one open alert whose `events` counts every post.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../platform/db/schema.js';
import type { AlertIntegrationsTable } from '../platform/db/tables/alerts.js';
import { inTransaction } from '../platform/db/database.js';
import { groupIntoOpenAlert } from './hot-queries.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { enqueue } from '../platform/jobs/queue.js';
import { BadRequestError } from '../platform/errors.js';
import { RESOLVED, SEVERITY_CODE, STATUS_CODE } from './model.js';
import { parsePayload } from './payload/parse-payload.js';
import { normaliseMapping, type MappingEntry } from './payload/mapping.js';
import type { NormalizedAlert } from './payload/normalized-alert.js';
import { alertBotId } from './alert-bot.js';
import { incidentSettings, type IncidentSettings } from './incident-settings.js';
import { addAlertSystemNote, alertNoteText } from './alert-notes.js';

export type IntegrationRow = Selectable<AlertIntegrationsTable>;

export interface ProcessedAlert {
  iid: number;
  title: string;
}

export const JOB_CREATE_INCIDENT = 'alerts.create_incident';
export const JOB_CLOSE_INCIDENT = 'alerts.close_incident';

const OPEN = sql<boolean>`status <> 2`;

/**
 * The actor is the integration whose key the request carried. `knownSettings` may come with the
 * caller's lookup (the endpoint reads them in its one query).
 */
export async function processAlertPayload(deps: Deps, integration: IntegrationRow, body: Record<string, unknown>, knownSettings?: IncidentSettings): Promise<ProcessedAlert[]> {
  const now = deps.clock.now();
  const mapping = integration.active === 1 && integration.payload_attribute_mapping !== '{}' ? normaliseMapping(JSON.parse(integration.payload_attribute_mapping) as Record<string, MappingEntry>) : null;
  const parsed = parsePayload(body, { now, tier: deps.config.tier, mapping });
  if (parsed.alerts.length === 0 && parsed.skipped > 0) throw new BadRequestError('no alert in the payload has a title and a start time');
  const source = (alert: NormalizedAlert) =>
    parsed.source === 'prometheus' ? integration.name || 'Prometheus' : (alert.monitoringTool ?? (integration.name || 'Generic Alert Endpoint'));
  // The common case, one firing alert of an open fingerprint, is a single conditional UPDATE: one
  // statement is its own transaction, so it needs no BEGIN/COMMIT round (the hot path of the bench).
  if (parsed.alerts.length === 1 && parsed.alerts[0].fingerprint !== null && parsed.alerts[0].endedAt === null) {
    const grouped = await groupIntoOpenAlert(deps.reads, null, Number(integration.project_id), parsed.alerts[0].fingerprint, now);
    if (grouped) {
      deps.metrics.alertsIngested.inc({ outcome: 'accepted' });
      return [grouped];
    }
  }
  const botId = await alertBotId(deps);
  let enqueued = false;
  const results = await inTransaction(deps.db, async (trx) => {
    const settings = knownSettings ?? (await incidentSettings(trx, Number(integration.project_id)));
    const touched: ProcessedAlert[] = [];
    for (const alert of parsed.alerts) {
      const outcome = await processOne(deps, trx, Number(integration.project_id), alert, { now, botId, settings, source: source(alert) });
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

async function processOne(deps: Deps, trx: Transaction<DB>, projectId: number, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  const { now } = context;
  if (alert.fingerprint !== null && alert.endedAt !== null) {
    // A recovery alert resolves the open alert of its fingerprint.
    const resolved = await trx
      .updateTable('alert_management_alerts')
      .set({ status: RESOLVED, ended_at: alert.endedAt, updated_at: now })
      .where('project_id', '=', projectId)
      .where('fingerprint', '=', alert.fingerprint)
      .where(OPEN)
      .returning(['id', 'iid', 'title', 'issue_id', 'project_id'])
      .executeTakeFirst();
    if (resolved) {
      const row = { id: Number(resolved.id), project_id: projectId };
      await addAlertSystemNote(trx, now, row, context.botId, alertNoteText.recovery(context.source));
      await addAlertSystemNote(trx, now, row, context.botId, alertNoteText.status('resolved'));
      const close = context.settings.autoCloseIncident && resolved.issue_id !== null;
      if (close) await enqueue(trx, deps.clock, JOB_CLOSE_INCIDENT, { alertId: row.id });
      return { iid: resolved.iid, title: resolved.title, enqueued: close };
    }
    // A repeat of a recovery already recorded (senders retry, Alertmanager re-sends) is the same
    // alert, not a new one.
    const repeat = await trx
      .selectFrom('alert_management_alerts')
      .select(['iid', 'title'])
      .where('project_id', '=', projectId)
      .where('fingerprint', '=', alert.fingerprint)
      .where('status', '=', RESOLVED)
      .where('ended_at', '=', alert.endedAt)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (repeat) return { iid: repeat.iid, title: repeat.title, enqueued: false };
    // DECISIONS.md: an end time with no open alert stores the alert already resolved.
    return insertAlert(deps, trx, projectId, alert, context);
  }
  if (alert.fingerprint !== null) {
    const grouped = await groupIntoOpenAlert(deps.reads, trx, projectId, alert.fingerprint, now);
    if (grouped) return { ...grouped, enqueued: false };
  }
  return insertAlert(deps, trx, projectId, alert, context);
}

async function insertAlert(deps: Deps, trx: Transaction<DB>, projectId: number, alert: NormalizedAlert, context: Context): Promise<Outcome> {
  const { now } = context;
  const iid = await nextInternalId(trx, projectId, 'alerts');
  // GitLab links `gitlab_environment_name` to the project's environment of exactly that name (§16).
  const environment = alert.environmentName === null
    ? undefined
    : await trx.selectFrom('environments').select('id').where('project_id', '=', projectId).where('name', '=', alert.environmentName).limit(1).executeTakeFirst();
  const resolved = alert.endedAt !== null;
  const row = await trx
    .insertInto('alert_management_alerts')
    .values({
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
      events: 1,
      fingerprint: alert.fingerprint,
      environment_name: alert.environmentName,
      environment_id: environment ? Number(environment.id) : null,
      issue_id: null,
      payload: JSON.stringify(alert.payload ?? {}),
      created_at: now,
      updated_at: now,
    })
    // Lost a race to another request or node: count this post on the alert that won.
    .onConflict((conflict) => conflict.columns(['project_id', 'fingerprint']).where(OPEN).doUpdateSet({ events: sql`alert_management_alerts.events + 1`, updated_at: now }))
    .returning(['id', 'iid', 'title'])
    .executeTakeFirstOrThrow();
  if (row.iid !== iid) return { iid: row.iid, title: row.title, enqueued: false };
  const created = { id: Number(row.id), project_id: projectId };
  await addAlertSystemNote(trx, now, created, context.botId, resolved ? alertNoteText.recovery(context.source) : alertNoteText.logged(context.source));
  const incident = !resolved && context.settings.createIssue;
  if (incident) await enqueue(trx, deps.clock, JOB_CREATE_INCIDENT, { alertId: created.id });
  return { iid: row.iid, title: row.title, enqueued: incident };
}
