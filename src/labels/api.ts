// What other features may use of labels: finding (and making) a project's labels by title for an
// issue, the labels of issues, and the label entity issues embed. Everything else here is internal.
export type { IssueLabel, LabelRow } from './entities.js';
export { labelBasicEntity } from './entities.js';
export { findOrCreateLabels, labelsOfIssues } from './find-or-create-labels.js';
export { groupAndAncestorIds, groupAndDescendantIds } from './labels-queries.js';
export { labelsByIds } from './finder.js';
export { availableLabelsQuery } from './finder.js';
export { colourDot, labelChip } from './label-chip.js';
// Issues 36 and 38: who subscribed to labels, for notifications' recipients.
export { labelSubscriberIds } from './subscriptions.js';
