// URL checks in the words of GitLab's AddressableUrlValidator / Gitlab::UrlBlocker (gitlab-rest.md §3.3
// and §6): environment external URLs (localhost and private networks allowed) and error-tracker API
// URLs (`public_url`: public hosts only, ASCII only, no markup). Only literal hosts are judged; no DNS
// lookups are made, so validation never waits on the network.
import { isIP } from 'node:net';

export interface UrlRules {
  schemes?: readonly string[];
  allowLocalhost?: boolean;
  allowLocalNetwork?: boolean;
  asciiOnly?: boolean;
  enforceSanitization?: boolean;
}

/** The reason a URL is refused (the text after `is blocked: `), or null when it is acceptable. */
export function blockedUrlReason(value: string, rules: UrlRules = {}): string | null {
  const schemes = rules.schemes ?? ['http', 'https'];
  if (/[\r\n]/.test(value)) return 'URI is invalid';
  if (rules.enforceSanitization && /<[^>]*>|&lt;|&gt;/i.test(value)) return 'HTML/CSS/JS tags are not allowed';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (!scheme || !schemes.includes(scheme)) return `Only allowed schemes are ${schemes.join(', ')}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'URI is invalid';
  }
  const rawHost = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/.exec(value)?.[1] ?? '';
  if (rawHost === '' || url.hostname === '') return 'URI is invalid';
  // Gitlab::UrlBlocker#validate_hostname: an IP address, or a name starting with a letter or digit.
  if (!isIP(rawHost.replace(/^\[|\]$/g, '')) && !/^[\p{L}\p{N}]/u.test(rawHost)) return 'Hostname or IP address invalid';
  if (rules.asciiOnly && /[^\x20-\x7e]/.test(value)) return `URI must be ascii only ${JSON.stringify(value)}`;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (rules.allowLocalhost === false && isLocalhost(host)) return 'Requests to localhost are not allowed';
  if (rules.allowLocalNetwork === false && isLocalNetwork(host)) return 'Requests to the local network are not allowed';
  return null;
}

function isLocalhost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^::ffff:127\./.test(host) || /^::ffff:7f/.test(host);
  return false;
}

function isLocalNetwork(host: string): boolean {
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number);
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIP(host) === 6) return /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || /^::ffff:(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(host);
  return false;
}
