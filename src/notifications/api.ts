// What other features may use of notifications: whether a user is subscribed to an issue (the
// `subscribed` field of the issue entity).
export { isSubscribed } from './subscriptions.js';
// Issue 36 (to-dos): `@username` references in Markdown, and those an edit added.
export { mentionedUsernames } from './mentions.js';
export { addedMentions } from './new-mentions.js';
