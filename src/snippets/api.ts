// What other features may use of snippets: a snippet's page address (a Note Hook on a snippet links it).
export { snippetWebUrl } from './entities.js';
