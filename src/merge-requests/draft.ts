// Draft merge requests are those whose title starts with a draft prefix (GitLab 16's
// MergeRequest::DRAFT_REGEX: `[draft]`, `(draft)` or `draft:`, any case, possibly repeated). The
// `draft` column is kept equal to the title at every write, so lists filter it by index.

const DRAFT_PREFIX = /^\s*(?:\[draft\]|\(draft\)|draft:)+\s*/i;

export function isDraftTitle(title: string): boolean {
  return DRAFT_PREFIX.test(title);
}

/** The title without its draft prefix (GitLab's draftless_title). */
export function draftlessTitle(title: string): string {
  return title.replace(DRAFT_PREFIX, '');
}

/** GitLab's draft_title: `Draft: ` before the draftless title. */
export function draftTitle(title: string): string {
  return `Draft: ${draftlessTitle(title)}`;
}
