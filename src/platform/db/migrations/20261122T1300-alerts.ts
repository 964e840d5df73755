import { sql, type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('alert_management_http_integrations'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('type_identifier', 'text', (c) => c.notNull())
    .addColumn('endpoint_identifier', 'text', (c) => c.notNull())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('payload_example', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('payload_attribute_mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('alert_integrations_endpoint', ['project_id', 'endpoint_identifier'])
    .execute();

  await withId(db, db.schema.createTable('alert_management_alerts'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('severity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('service', 'text')
    .addColumn('monitoring_tool', 'text')
    .addColumn('hosts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('started_at', TIME, (c) => c.notNull())
    .addColumn('ended_at', TIME)
    .addColumn('events', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('fingerprint', 'text')
    .addColumn('environment_name', 'text')
    .addColumn('environment_id', 'bigint')
    .addColumn('issue_id', 'bigint', (c) => c.references('issues.id').onDelete('set null'))
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('alerts_project_iid', ['project_id', 'iid'])
    .execute();
  // The grouping invariant (GitLab's alert management documentation): one unresolved alert per (project,
  // fingerprint). Ingestion upserts against exactly this predicate, so keep the two in step.
  await db.schema
    .createIndex('alerts_open_fingerprint')
    .on('alert_management_alerts')
    .columns(['project_id', 'fingerprint'])
    .unique()
    .where(sql.ref('status'), '<>', sql.lit(2))
    .execute();
  await db.schema.createIndex('alerts_project_status').on('alert_management_alerts').columns(['project_id', 'status', 'id']).execute();
  await db.schema.createIndex('alerts_issue').on('alert_management_alerts').columns(['issue_id']).execute();

  await db.schema
    .createTable('project_incident_management_settings')
    .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('create_issue', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('send_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_close_incident', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('alerting_tool_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alerting_tool_url', 'text')
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
