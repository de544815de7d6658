/**
 * The checks of one setting's value (config.ts): each returns the value as the configuration holds it,
 * or throws ConfigError naming the variable (or the flag that overrode it), what it expects and what
 * it received — without a password, for the URLs of databases.
 */
import { checkIpRange } from '../auth/ip-range.ts';
import { supportedCountries } from '../code/index.ts';
import { describeValue } from '../errors.ts';
import { redactUrl } from '../store/database-url.ts';

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export function fail(variable: string, expected: string, received: string): never {
  throw new ConfigError(`${variable} must be ${expected}, received ${describeValue(received)}.`);
}

/** An integer setting from `min` to `max`. */
export function integer(variable: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) fail(variable, `an integer from ${min} to ${max}`, text);
  return value;
}

export function oneOf(variable: string, text: string, allowed: string[]): string {
  if (!allowed.includes(text)) fail(variable, `one of ${allowed.join(', ')}`, text);
  return text;
}

export function httpUrl(variable: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(variable, 'an http or https URL', text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(variable, 'an http or https URL', text);
  if (url.search || url.hash || url.username) fail(variable, 'a URL without query, fragment or credentials', text);
  return url.href.replace(/\/+$/, '');
}

/** A postgres:// URL, shown in errors without its password. */
export function postgresUrl(variable: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(variable, 'a postgres:// or postgresql:// URL', redactUrl(text));
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') fail(variable, 'a postgres:// or postgresql:// URL', redactUrl(text));
  if ((url.hostname === '' && !url.searchParams.has('host')) || url.pathname.length <= 1) fail(variable, 'a postgres:// URL with a host and a database name', redactUrl(text));
  return text;
}

/** A redis:// or rediss:// URL, shown in errors without its password. */
export function redisUrl(variable: string, text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    fail(variable, 'a redis:// or rediss:// URL with a host', redactUrl(text));
  }
  if (url.pathname.length > 1 && !/^\/\d+$/.test(url.pathname)) fail(variable, 'a redis:// URL whose path, if any, is a database number (/0)', redactUrl(text));
  return text;
}

export function countries(variable: string, text: string): ReadonlySet<string> {
  const covered = new Set(supportedCountries());
  const codes = text.split(',').map((code) => code.trim().toUpperCase()).filter((code) => code !== '');
  if (codes.length === 0) fail(variable, 'a comma-separated list of country codes such as "FR,DE"', text);
  for (const code of codes) {
    if (!covered.has(code)) fail(variable, `a list of covered ISO 3166-1 alpha-2 codes (${JSON.stringify(code)} is not one)`, text);
  }
  return new Set(codes);
}

export function proxies(variable: string, text: string): string[] {
  return text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '').map((entry) => {
    if (PROXY_NAMES.includes(entry)) return entry;
    try {
      return checkIpRange(entry);
    } catch {
      return fail(variable, `a list of IP addresses, CIDR ranges or ${PROXY_NAMES.join('/')}`, text);
    }
  });
}
