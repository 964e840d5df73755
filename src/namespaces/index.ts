// Namespaces: the personal and group namespaces a user can use, one namespace, and path availability.
import type { Feature } from '../platform/feature.js';
import { namespacesRoutes } from './routes.js';

export const namespacesFeature: Feature = { name: 'namespaces', routes: namespacesRoutes };
