// A path of names (a file, a wiki page's slug) inside a URL: each segment encoded, the slashes kept.
export function encodePathSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
