// The stylesheet and scripts every page loads (layout.ts links them). Part of the page framework, so
// it is registered as a feature of the platform, as housekeeping is.
import type { Feature } from '../feature.js';
import { STYLESHEET } from './layout.js';
import { SCRIPT } from './scripts.js';
import { CODE_STYLES } from './code-styles.js';
import { PLANNING_STYLES } from './planning-styles.js';
import { ADMIN_STYLES } from './admin-styles.js';
import { CI_STYLES } from './ci-styles.js';
import { CODE_SCRIPT } from './code-scripts.js';
import { SHORTCUT_SCRIPT } from './shortcuts/script.js';
import { SHORTCUT_STYLES } from './shortcuts/styles.js';
import { highlightThemes, htmxScript } from './vendor-assets.js';
import { withThemeClasses } from './themes.js';

let stylesheet: string | undefined;
/**
 * The base styles, then code and the dark theme, then the token colours (read once); the dark rules
 * also apply to a user who chose the dark theme, and not to one who chose the light one (themes.ts).
 */
function fullStylesheet(): string {
  stylesheet ??= withThemeClasses(STYLESHEET + CODE_STYLES + PLANNING_STYLES + ADMIN_STYLES + CI_STYLES + SHORTCUT_STYLES + highlightThemes());
  return stylesheet;
}

export const webAssetsFeature: Feature = {
  name: 'web-assets',
  routes(app) {
    app.get('/-/assets/kiln.css', { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(fullStylesheet()));
    app.get('/-/assets/kiln.js', { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SCRIPT + CODE_SCRIPT + SHORTCUT_SCRIPT));
    app.get('/-/assets/htmx.min.js', { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(htmxScript()));
  },
};
