// The admin area: the dashboard at /admin with the instance's counts and the way to every admin
// page, the background jobs page, GET /application/statistics and the Sidekiq metrics API.
import type { Feature } from '../platform/feature.js';
import { apiRoute } from '../platform/http/route.js';
import { pageRoute } from '../platform/web/page-route.js';
import { instanceCounts } from './statistics-queries.js';
import { applicationStatistics } from './entities.js';
import { dashboardPage } from './dashboard-page.js';
import { JOBS_URL, handleJobAction, renderJobs } from './jobs-page.js';
import { jobStats, processMetrics, queueMetrics } from './sidekiq-metrics.js';

export const adminFeature: Feature = {
  name: 'admin',
  routes(app, deps) {
    apiRoute(app, deps, {
      method: 'GET', url: '/application/statistics', summary: 'Counts of what the instance holds (administrators)', tags: ['settings'],
      ability: { instance: 'admin_all_resources' },
      handler: async () => applicationStatistics(await instanceCounts(deps)),
    });
    const metrics = {
      queue_metrics: ['The job queue\'s backlog and latency', () => queueMetrics(deps)],
      process_metrics: ['The job workers and how many jobs each holds', () => processMetrics(deps)],
      job_stats: ['Counts of processed, failed, queued and dead jobs', () => jobStats(deps)],
      compound_metrics: ['The three above in one answer', async () => ({ ...(await queueMetrics(deps)), ...(await processMetrics(deps)), ...(await jobStats(deps)) })],
    } as const;
    for (const [name, [summary, handler]] of Object.entries(metrics)) {
      apiRoute(app, deps, {
        method: 'GET', url: `/sidekiq/${name}`, summary: `${summary} (administrators)`, tags: ['settings'],
        ability: { instance: 'admin_all_resources' },
        handler,
      });
    }
    pageRoute(app, deps, {
      method: 'GET', url: '/admin', ability: { instance: 'admin_all_resources' },
      handler: async () => dashboardPage(await instanceCounts(deps)),
    });
    pageRoute(app, deps, { method: 'GET', url: JOBS_URL, ability: { instance: 'admin_all_resources' }, handler: renderJobs });
    pageRoute(app, deps, { method: 'POST', url: `${JOBS_URL}/:id/:action`, ability: { instance: 'admin_all_resources' }, handler: handleJobAction });
  },
};
