// Notification settings at global, group and project level.
import type { Feature } from '../platform/feature.js';
import { notificationsRoutes } from './routes.js';

export const notificationsFeature: Feature = { name: 'notifications', routes: notificationsRoutes };
