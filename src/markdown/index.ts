// Markdown: POST /markdown and the renderer that pages share.
import type { Feature } from '../platform/feature.js';
import { markdownRoutes } from './routes.js';

export const markdownFeature: Feature = { name: 'markdown', routes: markdownRoutes };
