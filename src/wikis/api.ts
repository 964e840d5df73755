// What other features may use of wikis: a page as it was at a commit (the Wiki Page Hook's payload),
// and the newest page (a hook's test).
export { wikiPageAt, newestWikiPage } from './page-at.js';
