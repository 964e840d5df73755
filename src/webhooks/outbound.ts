// Outgoing HTTP for webhooks and chat integrations, in the words of GitLab's UrlBlocker: the URL is
// judged when saved (`is blocked: …`), and again at delivery on the address its name resolves to. The
// name is resolved once and the connection pinned to that address (the Host header and TLS SNI keep
// the name), so a name cannot pass the check with one address and connect to another (DNS rebinding).
// Redirects are not followed; every request ends within 10 seconds.
import http from 'node:http';
import https from 'node:https';
import { isIP, BlockList } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { Deps } from '../platform/deps.js';
import { blockedAddressReason, blockedUrlReason, type UrlRules } from '../platform/url-blocker.js';
import { readApplicationSettings } from '../application-settings/api.js';

export const REQUEST_TIMEOUT_MS = 10_000;
/** GitLab keeps at most this much of a response body in a hook's log. */
const RESPONSE_BODY_LIMIT = 8 * 1024;

export interface OutboundRules extends Pick<UrlRules, 'allowLocalhost' | 'allowLocalNetwork'> {
  /** outbound_local_requests_whitelist: hosts, addresses and ranges reachable even when local ones are not. */
  allowList: string[];
}

/** System hooks follow allow_local_requests_from_system_hooks; every other hook and integration the web-hooks setting. */
export async function outboundRules(deps: Deps, kind: 'system' | 'web'): Promise<OutboundRules> {
  const settings = await readApplicationSettings(deps.db);
  const allow = kind === 'system' ? settings.allow_local_requests_from_system_hooks : settings.allow_local_requests_from_web_hooks_and_services;
  return { allowLocalhost: allow, allowLocalNetwork: allow, allowList: settings.outbound_local_requests_whitelist ?? [] };
}

interface AllowList {
  names: Set<string>;
  ranges: BlockList | null;
}

/** The allow list parsed once per rules object (a delivery job reuses one for all its hooks). */
const parsedAllowLists = new WeakMap<OutboundRules, AllowList>();

function validPrefix(bits: string, family: number): boolean {
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function allowListOf(rules: OutboundRules): AllowList {
  let parsed = parsedAllowLists.get(rules);
  if (parsed) return parsed;
  parsed = { names: new Set(), ranges: null };
  for (const entry of rules.allowList) {
    const value = entry.trim().toLowerCase();
    parsed.names.add(value);
    const [address, bits] = value.split('/');
    const family = isIP(address);
    // Not an address or a valid range (`10.0.0.0/33`): a name, never matched by an address, as GitLab's
    // UrlBlockers::IpAllowlistEntry falls back to a domain entry when IPAddr refuses it.
    if (!family || (bits !== undefined && !validPrefix(bits, family))) continue;
    parsed.ranges ??= new BlockList();
    if (bits !== undefined) parsed.ranges.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    else parsed.ranges.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
  }
  parsedAllowLists.set(rules, parsed);
  return parsed;
}

function allowListed(host: string, rules: OutboundRules): boolean {
  if (rules.allowList.length === 0) return false;
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const { names, ranges } = allowListOf(rules);
  if (names.has(bare)) return true;
  const family = isIP(bare);
  return family !== 0 && ranges !== null && ranges.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** The reason a hook URL may not be saved (the text after `is blocked: `), or null. */
export function blockedHookUrl(url: string, rules: OutboundRules): string | null {
  const syntax = blockedUrlReason(url);
  if (syntax) return syntax;
  const host = new URL(url).hostname;
  if (allowListed(host, rules)) return null;
  return blockedUrlReason(url, rules);
}

export class BlockedRequestError extends Error {}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  rules: OutboundRules;
}

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

/** Resolve once, judge the address, then POST to that address. Throws BlockedRequestError or the network error. */
export async function postPinned(deps: Deps, request: OutboundRequest): Promise<OutboundResponse> {
  const url = new URL(request.url);
  const syntax = blockedUrlReason(request.url);
  if (syntax) throw new BlockedRequestError(syntax);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolveOnce(deps, host);
  // As GitLab: every address the name has must be acceptable, not only the one connected to.
  if (!allowListed(host, request.rules)) {
    const nameReason = blockedUrlReason(request.url, request.rules);
    if (nameReason) throw new BlockedRequestError(nameReason);
    for (const candidate of addresses) {
      const reason = allowListed(candidate, request.rules) ? null : blockedAddressReason(candidate, request.rules);
      if (reason) throw new BlockedRequestError(reason);
    }
  }
  const address = addresses[0];
  const family = isIP(address);
  const secure = url.protocol === 'https:';
  const transport = secure ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = transport.request(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        agent: secure ? (request.verifyTls ? httpsAgent : undefined) : httpAgent,
        rejectUnauthorized: request.verifyTls,
        servername: secure && !isIP(host) ? host : undefined,
        timeout: REQUEST_TIMEOUT_MS,
        // The pin: whatever the agent asks, the answer is the address already judged.
        lookup: ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (options?.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        }) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(deadline);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT) });
        });
        res.on('error', reject);
      },
    );
    // The whole exchange, not only idle time, is bounded: a receiver trickling bytes still ends at 10 s.
    const deadline = setTimeout(() => req.destroy(new Error('execution expired')), REQUEST_TIMEOUT_MS);
    req.on('timeout', () => req.destroy(new Error('execution expired')));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end(request.body);
  });
}

async function resolveOnce(deps: Deps, host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  let addresses: string[];
  try {
    addresses = deps.resolveHost ? await deps.resolveHost(host) : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw new BlockedRequestError('Host cannot be resolved or invalid');
  }
  if (addresses.length === 0) throw new BlockedRequestError('Host cannot be resolved or invalid');
  return addresses;
}
