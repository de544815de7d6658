/**
 * IP ranges a key may be used from: CIDR blocks of IPv4 or IPv6. An IPv4 client seen by a dual-stack
 * socket as `::ffff:a.b.c.d` matches IPv4 ranges; a bare address is a range of one.
 */
import ipaddr from 'ipaddr.js';
import { LocError, describeValue } from '../errors.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** The canonical text of a range (`10.0.0.0/8`, `2001:db8::/32`); throws `validation_error` otherwise. */
export function checkIpRange(input: unknown, field = 'ip'): string {
  const range = typeof input === 'string' ? parseRange(input.trim()) : null;
  if (range === null) {
    throw new LocError(
      'validation_error',
      `${field} must be an IPv4 or IPv6 address or CIDR range such as "203.0.113.0/24" or "2001:db8::/32", received ${describeValue(input)}.`,
      field,
    );
  }
  const [address, bits] = range;
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** A matcher for a list of canonical ranges; an empty list allows every address. */
export function ipMatcher(ranges: readonly string[]): (ip: string) => boolean {
  if (ranges.length === 0) return () => true;
  const parsed = ranges.map((text) => parseRange(text)).filter((range): range is Range => range !== null);
  return (ip) => {
    if (!ipaddr.isValid(ip)) return false;
    const address = ipaddr.process(ip);
    return parsed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  };
}

/** Whether `text` is one IP address as a client's is written: IPv6, or IPv4 in four decimal parts. */
export function isIpAddress(text: string): boolean {
  return fourDecimalParts(text) && ipaddr.isValid(text);
}

/**
 * An IPv4 address, alone or at the end of an IPv6 one, as four decimal numbers. ipaddr.js also takes
 * the legacy forms of inet_aton — `10.1` (10.0.0.1), `167772161`, `010.0.0.1` (octal: 8.0.0.1),
 * `0x7f.1` — so a shortened or zero-padded range (`--ip`, LOC_TRUST_PROXY) would be stored as another
 * network than the one that was meant.
 */
function fourDecimalParts(address: string): boolean {
  if (!address.includes(':')) return ipaddr.IPv4.isValidFourPartDecimal(address);
  const tail = address.slice(address.lastIndexOf(':') + 1);
  return !tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail);
}

function parseRange(text: string): Range | null {
  if (!fourDecimalParts(text.split('/')[0])) return null;
  try {
    if (text.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return unmap(address, bits);
    }
    if (!ipaddr.isValid(text)) return null;
    const address = ipaddr.parse(text);
    return unmap(address, address.kind() === 'ipv4' ? 32 : 128);
  } catch {
    return null;
  }
}

/** `::ffff:10.0.0.0/104` is the IPv4 range `10.0.0.0/8`: store and match it as such. */
function unmap(address: Address, bits: number): Range {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}
