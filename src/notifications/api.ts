// What other features may use of notifications: whether a user is subscribed to an issue (the
// `subscribed` field of the issue entity).
export { isSubscribed } from './subscriptions.js';
