// Markdown uploads (issue 38): the uploads API, the pages that serve the files and take them from
// browsers, and the daily removal of deleted projects' files.
import type { Feature } from '../platform/feature.js';
import { scheduleOnce } from '../platform/jobs/daily.js';
import { uploadRoutes } from './routes.js';
import { uploadPages } from './pages.js';
import { uploadFormPages } from './upload-pages.js';
import { PRUNE_UPLOADS_JOB, pruneOrphanUploadsJob } from './prune-orphan-uploads.js';

export const uploadsFeature: Feature = {
  name: 'uploads',
  routes(app, deps) {
    uploadRoutes(app, deps);
    uploadPages(app, deps);
    uploadFormPages(app, deps);
  },
  jobs: { [PRUNE_UPLOADS_JOB]: pruneOrphanUploadsJob },
  async onStart(deps) {
    await scheduleOnce(deps, PRUNE_UPLOADS_JOB, deps.clock.now(), { orRunning: true });
  },
};
