// Addresses of repository pages (segments encoded as web-paths.ts does).
import { refPath } from '../repository-api/web-paths.js';

export { refPath, relativeLinksFor } from '../repository-api/web-paths.js';

/** `/<project>/-/<kind>/<ref>[/<path>]`. */
export function repoUrl(base: string, kind: string, ref: string, path = ''): string {
  return `${base}/-/${kind}/${refPath(ref)}${path ? `/${refPath(path)}` : ''}`;
}
