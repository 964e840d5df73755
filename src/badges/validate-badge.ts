// A badge's URLs as GitLab's Badge model validates them (AddressableUrlValidator with http and https;
// local addresses allowed, as nothing fetches them), in GitLab's words.
import { ValidationError } from '../platform/errors.js';
import { blockedUrlReason } from '../platform/url-blocker.js';
import type { BadgeFields } from './entities.js';

export function validateBadge(badge: BadgeFields): void {
  const errors: Record<string, string[]> = {};
  for (const field of ['link_url', 'image_url'] as const) {
    const reason = blockedUrlReason(badge[field], { schemes: ['http', 'https'] });
    if (reason) errors[field] = [`is blocked: ${reason}`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
