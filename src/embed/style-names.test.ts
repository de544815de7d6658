/** The style names the service and the loader use are exactly the public `LocStyle`s, the default first. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEFAULTS } from './options.ts';
import type { LocStyle } from './public-types.ts';
import { STYLE_NAMES, type StyleName } from './style-names.ts';

describe('style names', () => {
  it('are the public LocStyle, no more and no fewer (checked by the type checker), the default first', () => {
    expectTypeOf<StyleName>().toEqualTypeOf<LocStyle>();
    expect(STYLE_NAMES[0]).toBe(DEFAULTS.style);
    expect(new Set(STYLE_NAMES).size).toBe(STYLE_NAMES.length);
  });
});
