// What other features may use of issues: creating and updating an issue (alerts open and close
// incidents), the users of notes and note entities. Everything else in this folder is internal.
export { createIssue } from './create-issue.js';
export { updateIssue } from './update-issue.js';
export { noteEntity, usersById } from './entities.js';
