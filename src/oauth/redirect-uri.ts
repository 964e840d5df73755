// Redirect URIs: registration rules and matching (RFC 6749 §3.1.2, RFC 9700 §2.1 and §4.1.3,
// GitLab's OAuth documentation). Matching is exact string equality; the only variation allowed is the
// port of an IP loopback URI (RFC 8252 §7.3).

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:']);
export const OOB_URI = 'urn:ietf:wg:oauth:2.0:oob';

/** Why a URI cannot be registered, in GitLab's words, or null when it can. */
export function redirectUriProblem(uri: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return /^[a-z][a-z0-9+.-]*:/i.test(uri) ? 'must be a valid URI.' : 'must be an absolute URI.';
  }
  const scheme = url.protocol.toLowerCase();
  if (FORBIDDEN_SCHEMES.has(scheme)) return 'is forbidden by the server.';
  if (scheme === 'localhost:') return 'must specify a scheme.';
  if (uri.includes('#')) return 'cannot contain a fragment.';
  if ((scheme === 'http:' || scheme === 'https:') && !url.hostname) return 'must be a valid URI.';
  if (scheme === 'http:' && !allowHttp && !isLoopback(url.hostname)) return 'must be an HTTPS/SSL URI.';
  return null;
}

/** Split the registration field on line breaks and whitespace (GitLab: "Use one line per URI"). */
export function splitRedirectUris(field: string): string[] {
  return field.split(/\s+/).filter((uri) => uri !== '');
}

export function validateRedirectUris(field: string, allowHttp: boolean): string[] {
  const uris = splitRedirectUris(field);
  if (uris.length === 0) return ["can't be blank"];
  const problems = uris.map((uri) => redirectUriProblem(uri, allowHttp)).filter((p): p is string => p !== null);
  return [...new Set(problems)];
}

function isLoopback(hostname: string): boolean {
  return /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/** True when `requested` names one of the registered URIs. */
export function matchesRegistered(requested: string, registered: string[]): boolean {
  if (requested.includes('#')) return false;
  return registered.some((candidate) => candidate === requested || loopbackPortVariant(candidate, requested));
}

const LOOPBACK_PREFIX = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?(?=[/?]|$)/;

/** The same loopback URI with any port: compare the raw strings with the port removed from both. */
function loopbackPortVariant(registered: string, requested: string): boolean {
  const a = LOOPBACK_PREFIX.exec(registered);
  const b = LOOPBACK_PREFIX.exec(requested);
  if (!a || !b || a[1] !== b[1]) return false;
  return registered.slice(a[0].length) === requested.slice(b[0].length);
}
