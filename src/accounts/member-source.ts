// What a membership belongs to (a group or a project), what adding one takes, and the levels it may have.
import { ValidationError } from '../platform/errors.js';
import { VALID_MEMBER_LEVELS } from '../platform/auth/access-levels.js';

export type MemberSource = { type: 'Namespace' | 'Project'; id: number };

export interface AddMemberInput {
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
}

export function validateMemberLevel(accessLevel: number): void {
  if (!VALID_MEMBER_LEVELS.includes(accessLevel)) throw new ValidationError({ access_level: ['is not included in the list'] });
}
