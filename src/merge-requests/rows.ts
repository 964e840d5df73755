// The merge request rows as the feature reads them (its tables: platform/db/tables/merge-requests.ts).
import type { Selectable } from 'kysely';
import type { MergeRequestDiffsTable, MergeRequestsTable } from '../platform/db/tables/merge-requests.js';

export type MergeRequestRow = Selectable<MergeRequestsTable>;
export type MergeRequestDiffRow = Selectable<MergeRequestDiffsTable>;
