/*
 * The guest limit's buckets (issue 33, ADR 0054). A guest's asks to one owner are counted three ways — by device
 * token, by normalised e-mail and by network prefix — and any bucket at its limit refuses. Pure: no I/O.
 */

// The address as the limit and the blocks see it (lower case, no `+tag`, Gmail's dots ignored): the kit's, which the
// mail caps count by too (ADR 0060).
export { normaliseEmail } from '@ques/kit/domain';

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The client's network as the limit counts it: an IPv4 /24 or an IPv6 /64 (one home or office line, usually). Null
 * for loopback — the local machine (development, tests, a BFF on the same host) is no one's network — and for
 * anything that is not an address.
 */
export function networkPrefix(ip: string | null | undefined): string | null {
  if (!ip) return null;
  let address = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const v4 = V4.exec(address);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255) || parts[0] === 127) return null;
    return `${parts[0]}.${parts[1]}.${parts[2]}.0/24`;
  }
  return ipv6Prefix(address);
}

function ipv6Prefix(raw: string): string | null {
  const address = raw.split('%')[0]!;
  if (!address.includes(':')) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const values = groups.map((g) => parseInt(g, 16));
  if (values.slice(0, 7).every((v) => v === 0) && values[7] === 1) return null;
  return `${values.slice(0, 4).map((v) => v.toString(16)).join(':')}::/64`;
}
