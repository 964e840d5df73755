// URL checks in the words of GitLab's AddressableUrlValidator / Gitlab::UrlBlocker (GitLab's REST API documentation
// and §6): environment external URLs (localhost and private networks allowed) and error-tracker API
// URLs (`public_url`: public hosts only, ASCII only, no markup); webhooks will use it too. Only the
// literal host is judged, as the WHATWG URL parser normalises it (decimal, octal and hex IPv4 forms
// become dotted quads, IPv6 is compressed); no DNS lookups are made, so validation never waits on the
// network. A client that connects must judge the resolved address again (`blockedAddressReason`):
// a public name can resolve to a private address.
import { isIP } from 'node:net';

export interface UrlRules {
  schemes?: readonly string[];
  allowLocalhost?: boolean;
  allowLocalNetwork?: boolean;
  asciiOnly?: boolean;
  enforceSanitization?: boolean;
}

const LOCALHOST = 'Requests to localhost are not allowed';
const LOCAL_NETWORK = 'Requests to the local network are not allowed';

/**
 * A tag (`<…>`) or an escaped angle bracket. Scanned by hand: `/<[^>]*>/` restarts at every `<`, so a
 * long run of `<` without `>` took time quadratic in its length.
 */
function hasMarkup(value: string): boolean {
  const open = value.indexOf('<');
  if (open !== -1 && value.indexOf('>', open + 1) !== -1) return true;
  return /&[lg]t;/i.test(value);
}

/** `name` without its trailing dots, in one pass (`/\.+$/` retried the run of dots from each of its dots). */
function withoutTrailingDots(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 0x2e) end -= 1;
  return name.slice(0, end);
}

/** The reason a URL is refused (the text after `is blocked: `), or null when it is acceptable. */
export function blockedUrlReason(value: string, rules: UrlRules = {}): string | null {
  const schemes = rules.schemes ?? ['http', 'https'];
  if (/[\r\n]/.test(value)) return 'URI is invalid';
  if (rules.enforceSanitization && hasMarkup(value)) return 'HTML/CSS/JS tags are not allowed';
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
  return hostReason(url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), rules);
}

/** The reason a resolved address may not be connected to under `rules`, or null. */
export function blockedAddressReason(address: string, rules: Pick<UrlRules, 'allowLocalhost' | 'allowLocalNetwork'> = {}): string | null {
  return isIP(address) ? hostReason(address.toLowerCase(), rules) : 'Host cannot be resolved or invalid';
}

function hostReason(host: string, rules: Pick<UrlRules, 'allowLocalhost' | 'allowLocalNetwork'>): string | null {
  const kind = hostKind(host);
  if (rules.allowLocalhost === false && kind === 'localhost') return LOCALHOST;
  if (rules.allowLocalNetwork === false && kind === 'local') return LOCAL_NETWORK;
  return null;
}

type HostKind = 'localhost' | 'local' | 'public';

function hostKind(host: string): HostKind {
  switch (isIP(host)) {
    case 4:
      return ipv4Kind(ipv4Bytes(host));
    case 6:
      return ipv6Kind(ipv6Bytes(host));
    default:
      return nameKind(host);
  }
}

/** Names that resolve to this machine on common systems (`/etc/hosts`, RFC 6761 §6.3). */
const LOCALHOST_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);
/**
 * Suffixes only ever used inside a network: mDNS `.local` (RFC 6762), `.home.arpa` (RFC 8375),
 * `.internal` (reserved for private use; cloud metadata lives at metadata.google.internal), and the
 * ones RFC 6762 Appendix G lists as customary on private networks.
 */
const INTERNAL_SUFFIXES = ['local', 'localdomain', 'internal', 'home.arpa', 'intranet', 'private', 'corp', 'home', 'lan'];

function nameKind(name: string): HostKind {
  // `localhost.` is `localhost`: the trailing dot only marks the name as fully qualified.
  const host = withoutTrailingDots(name);
  if (LOCALHOST_NAMES.has(host) || host.endsWith('.localhost')) return 'localhost';
  // A single label (`db`, `redis`) is completed by the resolver's search domains: an internal host.
  if (!host.includes('.')) return 'local';
  if (INTERNAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return 'local';
  return 'public';
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** Loopback and "this network" are localhost; private, link-local, shared (CGNAT) and broadcast are local (GitLab's UrlBlocker). */
function ipv4Kind([a, b, c, d]: number[]): HostKind {
  if (a === 127 || a === 0) return 'localhost';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'local';
  if (a === 169 && b === 254) return 'local';
  if (a === 100 && b >= 64 && b <= 127) return 'local';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'local';
  return 'public';
}

/** The 16 bytes of a valid IPv6 address, with an embedded dotted IPv4 tail if any. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]);
    tail.push(a, b, c, d);
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head, rest] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const isZero = (bytes: number[]) => bytes.every((byte) => byte === 0);
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);

/**
 * IPv6 forms that carry an IPv4 address are judged by that address: IPv4-mapped (::ffff:0:0/96),
 * IPv4-translated (::ffff:0:0:0/96) and
 * the deprecated IPv4-compatible (::/96), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48),
 * 6to4 (2002::/16) and Teredo's client (2001::/32); a relay or the kernel would deliver them there.
 */
function embeddedIpv4(bytes: number[]): number[] | null {
  const last = bytes.slice(12);
  if (isZero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff) return last;
  // IPv4-translated (::ffff:0:0:0/96, RFC 2765 SIIT): `::ffff:0:127.0.0.1`.
  if (isZero(bytes.slice(0, 8)) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) return last;
  if (isZero(bytes.slice(0, 12)) && !isZero(last) && !(isZero(last.slice(0, 3)) && last[3] === 1)) return last;
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && (isZero(bytes.slice(4, 12)) || (bytes[4] === 0 && bytes[5] === 1))) return last;
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6);
  if (startsWith(bytes, [0x20, 0x01, 0x00, 0x00])) return last.map((byte) => byte ^ 0xff);
  return null;
}

function ipv6Kind(bytes: number[]): HostKind {
  const v4 = embeddedIpv4(bytes);
  if (v4) return ipv4Kind(v4);
  if (isZero(bytes.slice(0, 15)) && (bytes[15] === 1 || bytes[15] === 0)) return 'localhost';
  // Unique local fc00::/7, link-local fe80::/10, the deprecated site-local fec0::/10.
  if ((bytes[0] & 0xfe) === 0xfc || (bytes[0] === 0xfe && (bytes[1] & 0x80) === 0x80)) return 'local';
  return 'public';
}
