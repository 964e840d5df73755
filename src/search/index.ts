// Search: projects, issues, milestones and users in the database, blobs with git grep.
import type { Feature } from '../platform/feature.js';
import { searchRoutes } from './routes.js';

export const searchFeature: Feature = { name: 'search', routes: searchRoutes };
