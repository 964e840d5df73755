// What other features may use of outgoing e-mail: queueing composed messages in their transaction.
export { queueEmails, composedBy, type OutgoingEmail } from './queue-emails.js';
