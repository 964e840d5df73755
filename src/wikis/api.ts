// What other features may use of wikis: a page as it was at a commit (the Wiki Page Hook's payload),
// the newest page (a hook's test) and the address of a page (the activity lists link it).
export { wikiPageAt, newestWikiPage } from './page-at.js';
export { slugPath as wikiPagePath } from './page-views.js';
