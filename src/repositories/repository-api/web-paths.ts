// Addresses of the repository's pages that the finders also give (a README's links): a ref or a
// path keeps its slashes (`feature/x`, `src/app.ts`); each segment is percent-encoded, so names
// with `#`, `?` or spaces stay one address.
import { encodePathSegments } from '../../platform/web/url-paths.js';

export const refPath: (name: string) => string = encodePathSegments;

/** Where a Markdown file's relative links and images lead (markdown/relative-links.ts). */
export function relativeLinksFor(base: string, ref: string, filePath: string): { blobBase: string; rawBase: string; directory: string } {
  const slash = filePath.lastIndexOf('/');
  return { blobBase: `${base}/-/blob/${refPath(ref)}`, rawBase: `${base}/-/raw/${refPath(ref)}`, directory: slash < 0 ? '' : filePath.slice(0, slash) };
}
