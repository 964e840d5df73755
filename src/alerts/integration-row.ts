// An alert integration as stored, passed between the finders, the actions and the ingestion path.
import type { Selectable } from 'kysely';
import type { AlertIntegrationsTable } from '../platform/db/tables/alerts.js';

export type IntegrationRow = Selectable<AlertIntegrationsTable>;
