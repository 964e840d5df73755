// Application settings (GET/PUT /application/settings) and the instance metadata (GET /metadata).
import type { Feature } from '../platform/feature.js';
import { applicationSettingsRoutes } from './routes.js';

export const applicationSettingsFeature: Feature = { name: 'application-settings', routes: applicationSettingsRoutes };
