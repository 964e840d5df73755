// Addresses of repository pages. A ref or a path keeps its slashes (`feature/x`, `src/app.ts`); each
// segment is percent-encoded, so names with `#`, `?` or spaces stay one address.

export function refPath(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

/** `/<project>/-/<kind>/<ref>[/<path>]`. */
export function repoUrl(base: string, kind: string, ref: string, path = ''): string {
  return `${base}/-/${kind}/${refPath(ref)}${path ? `/${refPath(path)}` : ''}`;
}
