// What other features may use of milestones: finding one through its project or group, and the
// entity issues embed. Everything else here is internal.
export type { MilestoneRow, MilestoneParentPath } from './entities.js';
export { milestoneEntity } from './entities.js';
export { findMilestone, type MilestoneParent } from './finder.js';
