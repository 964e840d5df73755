// Group and project membership, one action per file; this module only re-exports them for the callers
// outside src/ that import it by this name (benchmarks). The checked changes are create-member.ts,
// update-member.ts and destroy-member.ts.
export { validateMemberLevel, type AddMemberInput, type MemberSource } from './member-source.js';
export { insertMember } from './insert-member.js';
export { addMember } from './add-member.js';
export { listMembersQuery } from './members-finder.js';
export { memberEntity } from './member-entities.js';
