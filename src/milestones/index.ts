// Project and group milestones: their API, and (through api.ts) the milestone issues carry.
import type { Feature } from '../platform/feature.js';
import { milestonesRoutes } from './routes.js';

export const milestonesFeature: Feature = { name: 'milestones', routes: milestonesRoutes };
