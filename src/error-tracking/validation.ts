// Error tracking setting validations in GitLab's words (GitLab's REST API documentation). The URL must be public
// (no localhost or private network), ASCII, free of markup and at most 255 characters; while an
// external tracker is enabled it needs an API URL of the tracker's project and a token.
import { blockedUrlReason } from '../platform/url-blocker.js';
import { apiUrlSlugs } from './tracker-url.js';

export interface SettingsFields {
  enabled: boolean;
  integrated: boolean;
  apiUrl: string | null;
  hasToken: boolean;
}

const PUBLIC_URL = { schemes: ['http', 'https'], allowLocalhost: false, allowLocalNetwork: false, asciiOnly: true, enforceSanitization: true } as const;

export function settingsErrors(fields: SettingsFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (fields.apiUrl !== null) {
    if (fields.apiUrl.length > 255) add('api_url', 'is too long (maximum is 255 characters)');
    const reason = blockedUrlReason(fields.apiUrl, PUBLIC_URL);
    if (reason) add('api_url', `is blocked: ${reason}`);
  }
  // GitLab 14.2+: the integrated backend needs no external tracker, so nothing more is required.
  if (fields.enabled && !fields.integrated) {
    if (fields.apiUrl === null) add('api_url', 'is a required field');
    else {
      const slugs = apiUrlSlugs(fields.apiUrl);
      if (!slugs.prefix) add('api_url', 'is invalid');
      else if (!slugs.organization) add('project', 'is a required field');
    }
    if (!fields.hasToken) add('token', 'is a required field');
  }
  return errors;
}
