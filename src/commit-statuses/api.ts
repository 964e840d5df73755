// What other features may use of commit statuses: merge requests read their head pipeline and show it.
export { headPipelines, type HeadPipeline, type HeadPipelineWanted } from './head-pipelines.js';
export { pipelineBasicEntity, pipelineEntity } from './entities.js';
// Merge requests arm an automatic merge while the head pipeline is in one of these states.
export { ACTIVE } from './transitions.js';
// CI (issue 39): its pipelines' and stages' status is the same composite of their jobs.
export { compositeStatus, COMPLETED } from './transitions.js';
export { pipelinePath } from './entities.js';
export type { CiBuildRow, CiPipelineRow } from './rows.js';
