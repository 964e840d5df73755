// Issues and their notes: a minimal GitLab-shaped API; incidents are issues of type `incident`.
import type { Feature } from '../platform/feature.js';
import { issuesRoutes } from './routes.js';

export const issuesFeature: Feature = { name: 'issues', routes: issuesRoutes };
