// What other features may use of commit statuses: merge requests read their head pipeline and show it.
export { headPipelines, type HeadPipeline, type HeadPipelineWanted } from './head-pipelines.js';
export { pipelineBasicEntity, pipelineEntity } from './entities.js';
// Merge requests arm an automatic merge while the head pipeline is in one of these states.
export { ACTIVE } from './transitions.js';
