// The caller's address and the network buckets the gateway limits by. With TRUST_PROXY the address
// comes from X-Forwarded-For, which a proxy may write as `9.8.7.6:1234` or `[2001:db8::7]:443`, and
// which may hold garbage: the port and brackets are stripped and the rest must pass `net.isIP`,
// else the socket's own address is used. Buckets: an IPv4 address as it is, an IPv6 address by its
// /64 (one subscriber usually holds a whole /64); wider networks (IPv4 /24, IPv6 /56 and /48) for
// the per-network demo limits, so one home allocation of 256 /64s is still one network.
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/** An address as written in a forwarding header, without port or brackets, or null if it is none. */
export function normaliseAddress(raw: string | undefined): string | null {
  if (!raw) return null;
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  return net.isIP(s) ? s.toLowerCase() : null;
}

/** The caller's address: the (trusted) forwarded address when it is one, else the socket's. */
export function clientIp(request: FastifyRequest): string {
  const fromProxy = normaliseAddress(request.ip);
  if (fromProxy) return fromProxy;
  return socketAddress(request.socket);
}

/** The peer address of a connection, normalised ('unknown' when the socket has none). */
export function socketAddress(socket: { remoteAddress?: string } | undefined): string {
  return normaliseAddress(socket?.remoteAddress) ?? socket?.remoteAddress ?? 'unknown';
}

/** The 8 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included), or null. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    s = s.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parts = s.split('::');
  if (parts.length > 2) return null;
  const head = parts[0] ? parts[0].split(':') : [];
  const tail = parts.length === 2 && parts[1] ? parts[1].split(':') : [];
  const fill = parts.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0) return null;
  const groups = [...head, ...Array(fill).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const V4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i;

function v6Prefix(groups: number[], bits: 64 | 56 | 48): string {
  const g = groups.slice(0, 4);
  if (bits === 56) g[3] = g[3]! & 0xff00;
  const shown = bits === 48 ? g.slice(0, 3) : g;
  return `${shown.map((x) => x.toString(16)).join(':')}::/${bits}`;
}

/** The per-caller bucket: an IPv4 address as it is (IPv4-mapped too), an IPv6 address by its /64. */
export function ipBucket(ip: string): string {
  const v4 = V4.exec(ip);
  if (v4) return v4[1]!;
  const groups = ip.includes(':') ? ipv6Groups(ip) : null;
  return groups ? v6Prefix(groups, 64) : ip;
}

/**
 * The wider networks of an address, narrowest first: IPv4 → its /24; IPv6 → its /56 and /48.
 * `site` is the widest one, the unit of the daily share.
 */
export function networkBuckets(ip: string): { subnet: string | null; site: string | null } {
  const v4 = V4.exec(ip);
  if (v4) {
    const o = v4[1]!.split('.');
    return { subnet: `${o[0]}.${o[1]}.${o[2]}.0/24`, site: `${o[0]}.${o[1]}.${o[2]}.0/24` };
  }
  const groups = ip.includes(':') ? ipv6Groups(ip) : null;
  if (!groups) return { subnet: null, site: null };
  return { subnet: v6Prefix(groups, 56), site: v6Prefix(groups, 48) };
}
