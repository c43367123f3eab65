import { describe, expect, it } from 'vitest';
import { networkPrefix, normaliseEmail } from './guest-buckets.js';

describe('guest limit buckets (issue 33, ADR 0054)', () => {
  it('normalises an address: case, +tags, and Gmail dots and googlemail.com', () => {
    expect(normaliseEmail(' BlockMe+1@Example.com ')).toBe('blockme@example.com');
    expect(normaliseEmail('block.me+spam@example.com')).toBe('block.me@example.com');
    expect(normaliseEmail('Block.Me+x@GoogleMail.com')).toBe('blockme@gmail.com');
    expect(normaliseEmail('b.l.o.c.k.m.e@gmail.com')).toBe('blockme@gmail.com');
    expect(normaliseEmail('+only@example.com')).toBe('+only@example.com');
  });

  it('counts an IPv4 /24 and an IPv6 /64; the local machine and junk are no network', () => {
    expect(networkPrefix('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkPrefix('::ffff:203.0.113.99')).toBe('203.0.113.0/24');
    expect(networkPrefix('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(networkPrefix('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(networkPrefix('2001:0db8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64');
    for (const none of ['127.0.0.1', '::1', '', null, 'not-an-ip', '300.1.1.1', '1::2::3', '1:2:3:4:5:6:7:8:9'])
      expect(networkPrefix(none)).toBeNull();
  });
});
