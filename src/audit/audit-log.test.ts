import { describe, expect, it } from 'vitest';
import { describeChange } from './audit-log.ts';

describe('describeChange', () => {
  it('says the action, its target and its particulars in words', () => {
    expect(describeChange({ action: 'key.set_limits', target: 'key_1', details: { hourly_limit: null, session_limit: 9 } })).toBe(
      'changed the limits of the key key_1 (hourly limit: default; session limit: 9)',
    );
    expect(describeChange({ action: 'key.create', target: 'key_2', details: { mode: 'test', label: null, origins: [], ip_ranges: ['10.0.0.0/8', '::1/128'] } })).toBe(
      'created the key key_2 (mode: test; label: none; origins: none; ip ranges: 10.0.0.0/8, ::1/128)',
    );
    expect(describeChange({ action: 'user.invite', target: 'ada@example.com', details: { operator: false } })).toBe('invited ada@example.com (operator: no)');
    expect(describeChange({ action: 'user.password_change', target: null, details: {} })).toBe('changed their password');
  });

  it('shows an action a newer loc wrote by its name', () => {
    expect(describeChange({ action: 'key.renamed', target: 'key_1', details: { label: 'shop' } })).toBe('key.renamed key_1 (label: shop)');
  });
});
