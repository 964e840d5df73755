// What every write of a page checks and records: the content's size (the instance's
// wiki_page_max_content_bytes, GitLab's default 50 MB) and the commit message GitLab's Wiki writes
// when none is given.
import type { AuthUser } from '../platform/auth/principal.js';
import { ValidationError } from '../platform/errors.js';

export const MAX_CONTENT_BYTES = 52_428_800;

export function checkContent(content: string): void {
  const size = Buffer.byteLength(content, 'utf8');
  if (size > MAX_CONTENT_BYTES) throw new ValidationError({ content: [`is too long (${size} B). The maximum size is ${MAX_CONTENT_BYTES} B.`] });
}

/** Wiki#default_message: "<username> <action> page: <slug>". */
export function commitMessage(user: AuthUser, action: 'created' | 'updated' | 'deleted', slug: string, given?: string): string {
  const message = given?.trim();
  return message ? message : `${user.username} ${action} page: ${slug}`;
}
