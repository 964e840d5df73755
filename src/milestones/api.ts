// What other features may use of milestones: finding one or a list through its project or group,
// and the entity issues embed (the milestone pages, which list a milestone's issues, live in issues). Everything else here is internal.
export type { MilestoneRow, MilestoneParentPath } from './entities.js';
export { milestoneEntity } from './entities.js';
export { findMilestone, milestonesQuery, type MilestoneParent } from './finder.js';
export { projectPathsById } from './issue-projects.js';
// The dashboard's milestones list orders as the project and group lists do.
export { dueDateNullsLast } from './milestones-queries.js';
export { createMilestone } from './create-milestone.js';
export { updateMilestone } from './update-milestone.js';
export { deleteMilestone } from './delete-milestone.js';
