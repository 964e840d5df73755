// What other features may use of badges: the project page's row of badges.
export { projectBadgesHtml } from './project-badges.js';
