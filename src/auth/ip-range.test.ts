/** Key IP ranges: IPv4, IPv6 and IPv4-mapped IPv6. */
import { describe, expect, it } from 'vitest';
import { checkIpRange, ipMatcher } from './ip-range.ts';

describe('checkIpRange', () => {
  it('writes ranges canonically', () => {
    expect(checkIpRange('203.0.113.7/24')).toBe('203.0.113.0/24');
    expect(checkIpRange(' 198.51.100.1 ')).toBe('198.51.100.1/32');
    expect(checkIpRange('2001:DB8::1/32')).toBe('2001:db8::/32');
    expect(checkIpRange('::1')).toBe('::1/128');
    expect(checkIpRange('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
  });

  it.each(['10.0.0.0/33', '2001:db8::/129', '300.1.1.1', 'localhost', '', '10.0.0.0/', 7])('refuses %s', (input) => {
    expect(() => checkIpRange(input)).toThrow(/must be an IPv4 or IPv6 address or CIDR range/);
  });

  // inet_aton's legacy forms would be stored as another network: 010.0.0.1 is octal, 8.0.0.1.
  it.each(['10.1', '1.2.3', '010.0.0.1', '10.0.0.010/8', '0x7f.0.0.1', '4294967295', '::ffff:0x7f.0.0.1', '::ffff:010.0.0.0/104'])(
    'refuses the shortened, octal or hexadecimal IPv4 form %s',
    (input) => {
      expect(() => checkIpRange(input)).toThrow(/must be an IPv4 or IPv6 address or CIDR range/);
    },
  );
});

describe('ipMatcher', () => {
  const allowed = ipMatcher(['10.0.0.0/8', '2001:db8::/32', '192.0.2.1/32']);

  it('matches IPv4 and IPv6 inside their ranges', () => {
    expect(allowed('10.200.3.4')).toBe(true);
    expect(allowed('192.0.2.1')).toBe(true);
    expect(allowed('2001:db8:1::9')).toBe(true);
  });

  it('matches IPv4-mapped IPv6 as IPv4', () => {
    expect(allowed('::ffff:10.1.2.3')).toBe(true);
    expect(allowed('::ffff:11.1.2.3')).toBe(false);
  });

  it('refuses addresses outside, of the other family, or not addresses', () => {
    expect(allowed('11.0.0.1')).toBe(false);
    expect(allowed('192.0.2.2')).toBe(false);
    expect(allowed('2001:db9::1')).toBe(false);
    expect(allowed('::1')).toBe(false);
    expect(allowed('not-an-ip')).toBe(false);
  });

  it('allows everything when the list is empty', () => {
    expect(ipMatcher([])('203.0.113.1')).toBe(true);
  });
});
