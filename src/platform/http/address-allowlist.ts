// Who may read the monitoring endpoints: GitLab's monitoring whitelist (`monitoring_whitelist`,
// default the loopback addresses), given as addresses and CIDR ranges. Others get 404, as in GitLab.
// The address is the connection's own, or the client's as named by a proxy in KILN_TRUSTED_PROXIES:
// a forwarded header from anyone else cannot widen it.
import { BlockList, isIP } from 'node:net';

/** Whether an address is in the list; IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) count as IPv4. */
export function addressAllowlist(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const family = address ? isIP(address) : 0;
    return family !== 0 && list.check(address!, family === 4 ? 'ipv4' : 'ipv6');
  };
}
