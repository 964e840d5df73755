// The environment slug (GitLab's REST API documentation, GitLab's lib/gitlab/slug/environment.rb): a DNS-label-safe
// name of at most 24 characters, generated once on create. The suffix is derived from a SHA-256 of the
// original name, so the same name always gives the same slug (no randomness to inject).
import { createHash } from 'node:crypto';

export const SLUG_MAX_LENGTH = 24;
const TRUNCATED_LENGTH = 17;
const SUFFIX_LENGTH = 6;

/** Last six base-36 digits of the SHA-256 of `name` read as one big integer. */
export function slugSuffix(name: string): string {
  const digest = createHash('sha256').update(name, 'utf8').digest('hex');
  return BigInt(`0x${digest}`).toString(36).slice(-SUFFIX_LENGTH);
}

export function environmentSlug(name: string | null | undefined, suffix: (name: string) => string = slugSuffix): string {
  const original = name ?? '';
  let slug = original.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length > SLUG_MAX_LENGTH || slug !== original) {
    slug = slug.slice(0, TRUNCATED_LENGTH);
    if (!slug.endsWith('-')) slug += '-';
    return slug + suffix(original);
  }
  return slug.endsWith('-') ? slug.slice(0, -1) : slug;
}
