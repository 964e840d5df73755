// The head pipeline of merge requests (GitLab 16's MergeRequest#head_pipeline): the newest pipeline
// of the source project (and, for a fork's merge request, of its target) for the diff head sha, run for the source branch or for the merge request's
// own refs. Read for a page of merge requests in one query; nothing is stored on the merge request,
// so a status posted for the head shows at once and a push that moves the head leaves it behind.
import type { Executor } from '../platform/db/database.js';
import type { CiPipelineRow } from './rows.js';

export interface HeadPipelineWanted {
  /** The caller's key (the merge request id). */
  key: number;
  /** Projects whose pipelines count: the source project, and a fork's target (its pipelines may run there). */
  projectIds: number[];
  sha: string;
  /** Refs whose pipelines count: the source branch and `refs/merge-requests/<iid>/head|merge`. */
  refs: string[];
}

export interface HeadPipeline {
  pipeline: CiPipelineRow;
  /** The average coverage of its latest builds that report one. */
  coverage: number | null;
}

export async function headPipelines(db: Executor, wanted: HeadPipelineWanted[]): Promise<Map<number, HeadPipeline>> {
  const found = new Map<number, HeadPipeline>();
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom('ci_pipelines as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('ci_builds as b')
        .select((inner) => inner.fn.avg<number>('b.coverage').as('average'))
        .whereRef('b.commit_id', '=', 'p.id')
        .where('b.retried', '=', 0)
        .where('b.coverage', 'is not', null)
        .as('average_coverage'),
    )
    .where('p.project_id', 'in', [...new Set(wanted.flatMap((want) => want.projectIds))])
    .where('p.sha', 'in', [...new Set(wanted.map((want) => want.sha))])
    .orderBy('p.id', 'desc')
    .execute();
  for (const want of wanted) {
    const row = rows.find((candidate) => want.projectIds.includes(Number(candidate.project_id)) && candidate.sha === want.sha && candidate.ref !== null && want.refs.includes(candidate.ref));
    if (!row) continue;
    const { average_coverage: coverage, ...pipeline } = row;
    found.set(want.key, { pipeline, coverage: coverage === null ? null : Number(coverage) });
  }
  return found;
}
