// The rules a pushed tag update must pass, in the order of GitLab's Gitlab::Checks::TagCheck
// (lib/gitlab/checks/tag_check.rb), with its messages. Pure: the facts come in. The same decision
// serves a push over HTTP or SSH (the pre-receive hook) and a tag written by the API or a page
// (repository-api/write-ref.ts, `fromWeb`).
import { allowsAnyProtectedRef, type BranchActor } from '../../platform/auth/policies/index.js';
import type { RefUpdate } from './branch-check.js';
import { tagRulesMatching, type ProtectedTagRule } from './tag-finder.js';

export const TAG_MESSAGES = {
  changeExistingTags: 'You are not allowed to change existing tags on this project.',
  updateProtectedTag: 'Protected tags cannot be updated.',
  deleteProtectedTag: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteProtectedTagNonWeb: 'You can only delete protected tags using the web interface.',
  createProtectedTag: 'You are not allowed to create this tag as it is protected.',
  defaultBranchCollision: 'You cannot use default branch name to create a tag',
  prohibitedTagName: 'You cannot create a tag with a prohibited pattern.',
  prohibitedShaTagName: 'You cannot create a tag with a SHA-1 or SHA-256 tag name.',
} as const;

export const TAG_PREFIX = 'refs/tags/';

export interface TagCheckFacts {
  defaultBranch: string;
  rules: readonly ProtectedTagRule[];
  actor: BranchActor;
  /** admin_tag on the project (Developers and up); null for a deploy key, which holds no role. */
  canAdminTag: boolean | null;
  /** GitLab's maintainer_access: Maintainers, Owners and administrators. */
  isMaintainer: boolean;
  /** The update comes from the web interface or the API, not from git. */
  fromWeb: boolean;
}

const ZERO = /^0+$/;
// A tag that starts like a full commit id would be taken for the commit by `git checkout`.
const STARTS_WITH_SHA = /^[0-9a-fA-F]{40}/;

/** The refusal of one update of `refs/tags/…`, or null when it may go ahead. */
export function refuseTagUpdate(update: RefUpdate, facts: TagCheckFacts): string | null {
  if (!update.ref.startsWith(TAG_PREFIX)) return null;
  const tag = update.ref.slice(TAG_PREFIX.length);
  const creation = ZERO.test(update.oldId);
  const deletion = ZERO.test(update.newId);

  if (!creation && facts.canAdminTag === false) return TAG_MESSAGES.changeExistingTags;
  if (creation && tag === facts.defaultBranch) return TAG_MESSAGES.defaultBranchCollision;
  if (!deletion) {
    if (tag.startsWith(TAG_PREFIX)) return TAG_MESSAGES.prohibitedTagName;
    if (STARTS_WITH_SHA.test(tag)) return TAG_MESSAGES.prohibitedShaTagName;
  }

  const rules = tagRulesMatching(facts.rules, tag);
  if (rules.length === 0) return null;
  if (!creation && !deletion) return TAG_MESSAGES.updateProtectedTag;
  if (deletion) {
    if (!facts.isMaintainer) return TAG_MESSAGES.deleteProtectedTag;
    if (!facts.fromWeb) return TAG_MESSAGES.deleteProtectedTagNonWeb;
  }
  // Even a deletion needs the right to create the tag: a tag nobody may create, nobody deletes.
  const levels = rules.flatMap((rule) => rule.create.map((level) => Number(level.access_level)));
  return allowsAnyProtectedRef(facts.actor, levels) ? null : TAG_MESSAGES.createProtectedTag;
}
