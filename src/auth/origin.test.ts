/** The embed's origin rules: what a page's location.origin writes and its frame's frame-ancestors can name. */
import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { checkOrigin, isLoopbackOrigin, originProblem } from './origin.ts';

const reason = (input: unknown): string => {
  try {
    checkOrigin(input);
  } catch (error) {
    expect(error).toBeInstanceOf(LocError);
    expect((error as LocError).code).toBe('validation_error');
    expect((error as LocError).field).toBe('origin');
    return (error as LocError).message;
  }
  throw new Error(`accepted ${String(input)}`);
};

describe('checkOrigin', () => {
  it.each(['https://shop.example', 'https://shop.example:8443', 'http://localhost:5173', 'http://localhost', 'https://localhost:3000', 'https://127.0.0.1:8443', 'https://xn--bcher-kva.example'])(
    'accepts %s',
    (origin) => expect(checkOrigin(origin)).toBe(origin),
  );

  it('wants https except on localhost', () => {
    expect(reason('http://shop.example')).toMatch(/must use https/);
    expect(reason('http://127.0.0.1:5173')).toMatch(/only for http:\/\/localhost/);
    expect(reason('http://127.0.0.1:5173')).toBe(
      'origin must use https (plain http is accepted only for http://localhost:<port>), received "http://127.0.0.1:5173"; did you mean "http://localhost:5173"? ' +
        'Open your page as http://localhost:5173 too: 127.0.0.1 and localhost are different origins.',
    );
    expect(reason('http://[::1]:3000')).toMatch(/did you mean "http:\/\/localhost:3000"\? Open your page as http:\/\/localhost:3000 too: \[::1\] and localhost/);
    expect(reason('http://127.0.0.1')).toMatch(/did you mean "http:\/\/localhost"\?/);
    expect(reason('http://shop.example')).not.toMatch(/did you mean/);
    expect(reason('ftp://shop.example')).toMatch(/must use https/);
  });

  it('refuses paths, queries and trailing slashes, and says what was meant', () => {
    expect(reason('https://shop.example/')).toBe(
      'origin must not have a path, query or trailing slash, received "https://shop.example/"; did you mean "https://shop.example"?',
    );
    expect(reason('https://shop.example/checkout')).toMatch(/path/);
    expect(reason('https://shop.example?x=1')).toMatch(/query/);
  });

  it('wants the form a browser writes', () => {
    expect(reason('HTTPS://Shop.Example')).toMatch(/did you mean "https:\/\/shop.example"/);
    expect(reason('https://shop.example:443')).toMatch(/no default port/);
  });

  it('refuses wildcards, which string equality never matches, and hosts no browser shows', () => {
    expect(reason('https://*.example')).toBe(
      'origin must be one exact origin such as "https://shop.example" (https, or http://localhost:<port>), without a wildcard, received "https://*.example"; register each origin your pages are served from.',
    );
    expect(reason('https://*')).toMatch(/without a wildcard/);
    expect(reason('http://*.localhost:5173')).toMatch(/without a wildcard/);
    expect(reason('https://shop*.example')).toMatch(/without a wildcard/);
    for (const origin of ['https://a!b.example', 'https://a$b.example', "https://a'b.example", 'https://a(b).example', 'https://a,b.example']) {
      expect(reason(origin)).toMatch(/must have a host name of letters, digits/);
    }
  });

  it.each(['https://shop.example.', 'https://-a.example', 'https://203.0.113.7'])('accepts the less common host %s', (origin) => expect(checkOrigin(origin)).toBe(origin));

  // Chromium ignores a frame-ancestors source it cannot parse (e2e/origins.spec.ts shows it): a page on
  // such an origin could never show the map, so the origin is refused, with the reason and what to do.
  it('refuses hosts a browser cannot match in frame-ancestors, and says why', () => {
    expect(reason('https://a_b.example')).toBe(
      'origin must not have "_" in its host name, received "https://a_b.example"; browsers cannot match it in the map frame\'s frame-ancestors, ' +
        'so no page there could show the map. Serve the page under a host name without "_".',
    );
    expect(reason('https://[2001:db8::1]')).toBe(
      'origin must not be an IPv6 address, received "https://[2001:db8::1]"; browsers cannot match it in the map frame\'s frame-ancestors, ' +
        'so no page there could show the map. Serve the page under a host name, and register that.',
    );
    expect(reason('https://[::1]:8443')).toMatch(/must not be an IPv6 address, .* Open your page as https:\/\/localhost:8443 instead, and register that\.$/);
    expect(reason('https://bücher.example')).toBe(
      'origin must write an international domain name as a browser does, in its punycode (xn--) form, received "https://bücher.example"; ' +
        'did you mean "https://xn--bcher-kva.example"?',
    );
  });

  it('says what is wrong with an origin stored under older rules, and nothing of a good one', () => {
    expect(originProblem('https://a_b.example')).toMatch(/^must not have "_" in its host name; browsers cannot match it/);
    expect(originProblem('https://[2001:db8::1]')).toMatch(/^must not be an IPv6 address; /);
    expect(originProblem('https://shop.example')).toBeNull();
  });

  it('refuses non-origins with the value it received', () => {
    expect(reason('null')).toMatch(/received "null"/);
    expect(reason('')).toMatch(/must be an origin/);
    expect(reason(42)).toMatch(/received 42/);
    expect(reason('https://user:pw@shop.example')).toMatch(/credentials/);
    expect(reason(`https://${'a'.repeat(300)}.example`)).toMatch(/at most 300/);
  });
});

describe('isLoopbackOrigin', () => {
  it.each(['http://localhost:3000', 'https://localhost', 'http://127.0.0.1:8080', 'https://127.0.0.2:4443', 'http://[::1]:5173'])('takes %s, a page on this machine', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(true);
  });

  it.each(['https://shop.example', 'http://localhost.example:3000', 'http://127.0.0.1.example', 'ws://localhost:3000', 'http://localhost:3000/', 'http://LOCALHOST:3000', 'http://127.1:80', 'localhost:3000', 'null'])(
    'refuses %s: another machine, or not written as a browser writes an origin',
    (origin) => {
      expect(isLoopbackOrigin(origin)).toBe(false);
    },
  );
});
