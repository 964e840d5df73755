// Issue 39: the ci-runners scenario (idle long-polling runners, 1,000 queued jobs handed out, a 5 MB
// log streamed beside ordinary requests) on PostgreSQL, one node. Same goals as on SQLite.
import { ciRunnersScenario } from './ci-runners.js';

export const scenario = ciRunnersScenario('ci-runners-postgres', 'postgres');

export default scenario;
