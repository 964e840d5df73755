// ETags on API reads, as GitLab's (Rack::ETag and Rack::ConditionalGet around the API): a 200 to a
// GET carries `ETag: W/"<md5 of the body>"`, and a GET whose `If-None-Match` names it gets 304 with
// no body. Computed from the answer the route gave, so after every permission check: a caller who
// may no longer read something gets its 404 or 403, never a 304.
import { createHash } from 'node:crypto';

export function etagOf(body: string): string {
  return `W/"${createHash('md5').update(body).digest('hex')}"`;
}

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false;
  const opaque = etag.slice(2);
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag === etag || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}
