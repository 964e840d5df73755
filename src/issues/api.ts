// What other features may use of issues: creating and updating an issue (alerts open and close
// incidents), the users of notes and note entities. Everything else in this folder is internal.
export { createIssue } from './create-issue.js';
export { updateIssue } from './update-issue.js';
export { noteEntity, usersById } from './entities.js';
// Issue 15 (search): issues the caller may read across projects or in one, and their entities.
export { readableIssuesQuery, projectIssuesQuery } from './issues-queries.js';
// Issue 16 (milestone pages): the issues of a milestone the viewer may read.
export { milestoneIssuesQuery } from './issues-queries.js';
export { confidentialScope, findReadableIssue } from './finder.js';
export { presentIssue, presentIssues } from './present-issues.js';
// Hooks other features register at setup for issues to call (hooks.ts).
export { issueHooks } from './hooks.js';
