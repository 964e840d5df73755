// What other features may use of notifications: whether a user is subscribed to an issue (the
// `subscribed` field of the issue entity).
export { isSubscribed } from './subscriptions.js';
// Issue 36 (to-dos): the `@username` references an edit added (markdown/mentions.ts finds them).
export { addedMentions } from './new-mentions.js';
