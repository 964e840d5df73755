// Authorization: named abilities and the policies that answer them. Import from here.
export * from './abilities.js';
export * from './policy.js';
export * from './issue-policy.js';
export * from './member-policy.js';
export * from './protected-branch-policy.js';
export * from './merge-request-policy.js';
export * from './snippet-policy.js';
