// Rows of the pipeline tables as read by Kysely.
import type { Selectable } from 'kysely';
import type { CiBuildsTable, CiPipelinesTable } from '../platform/db/tables/ci.js';

export type CiPipelineRow = Selectable<CiPipelinesTable>;
export type CiBuildRow = Selectable<CiBuildsTable>;
