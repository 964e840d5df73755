// Addresses of repository pages. A ref or a path keeps its slashes (`feature/x`, `src/app.ts`); each
// segment is percent-encoded, so names with `#`, `?` or spaces stay one address.

export function refPath(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

/** `/<project>/-/<kind>/<ref>[/<path>]`. */
export function repoUrl(base: string, kind: string, ref: string, path = ''): string {
  return `${base}/-/${kind}/${refPath(ref)}${path ? `/${refPath(path)}` : ''}`;
}

/** Where a Markdown file's relative links and images lead (markdown/relative-links.ts). */
export function relativeLinksFor(base: string, ref: string, filePath: string): { blobBase: string; rawBase: string; directory: string } {
  const slash = filePath.lastIndexOf('/');
  return { blobBase: `${base}/-/blob/${refPath(ref)}`, rawBase: `${base}/-/raw/${refPath(ref)}`, directory: slash < 0 ? '' : filePath.slice(0, slash) };
}
