// GitLab's line code (Gitlab::Git.diff_line_code): `<sha1 of the file path>_<old position>_<new
// position>`, the key of a diff line in URLs (`#<line code>`) and in diff notes' positions.
import { createHash } from 'node:crypto';

export function lineCode(path: string, oldPosition: number, newPosition: number): string {
  return `${createHash('sha1').update(path).digest('hex')}_${oldPosition}_${newPosition}`;
}
