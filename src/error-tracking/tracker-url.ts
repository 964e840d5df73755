// What GitLab derives from a tracker's API URL (GitLab's REST API documentation; GitLab's
// app/models/error_tracking/project_error_tracking_setting.rb): the organization and project slugs,
// the human project name, and the external (browser) URL.

// `/api/0/projects/<organization>/<project>/`, the two slugs optional so a bare prefix can be told
// apart from a foreign path.
const API_PATH = /^(?<prefix>\/api\/0\/projects\/+)(?:(?<organization>[^/]+)\/+(?<project>[^/]+)\/*)?$/;

export interface ApiUrlSlugs {
  prefix: boolean;
  organization: string | null;
  project: string | null;
}

export function apiUrlSlugs(apiUrl: string | null): ApiUrlSlugs {
  if (!apiUrl) return { prefix: false, organization: null, project: null };
  let path: string;
  try {
    path = new URL(apiUrl).pathname;
  } catch {
    return { prefix: false, organization: null, project: null };
  }
  const match = API_PATH.exec(path);
  return { prefix: Boolean(match), organization: match?.groups?.organization ?? null, project: match?.groups?.project ?? null };
}

/** `https://sentry.example.com/api/0/projects/org/proj/` → `https://sentry.example.com/org/proj/`. */
export function externalUrl(apiUrl: string | null): string | null {
  return apiUrl === null ? null : apiUrl.replace('api/0/projects/', '');
}

/** Rails' `titleize`: `sample-sentry_project` → `Sample Sentry Project`. */
export function titleize(slug: string): string {
  return slug
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase()
    .replace(/_/g, ' ')
    .trim()
    .replace(/(^|[^\w'’`()])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** The stored project name, else the project slug of the API URL, titleized. */
export function displayProjectName(stored: string | null, apiUrl: string | null): string | null {
  if (stored) return stored;
  const slug = apiUrlSlugs(apiUrl).project;
  return slug ? titleize(slug) : null;
}
