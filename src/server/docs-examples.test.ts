/**
 * The examples of docs/api.md, run as written: each `curl` block is sent, in order, to a new service
 * (LOC_PUBLIC_URL https://loc.example, a key of a new account that allows https://shop.example), and
 * its answer must be the JSON block that follows it — save the session's random token.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileService, json } from '../../test/support/service.ts';

const API_MD = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

interface Example {
  curl: string;
  answer: string;
}

/** Each ```sh block with a curl command followed by a ```json block. */
const examples: Example[] = [...API_MD.matchAll(/```sh\n(curl [^`]*?)```\n\n```json\n([^`]*?)```/g)].map((match) => ({ curl: match[1], answer: match[2] }));

/** The request a curl line of the docs sends: -d makes it a POST, -H adds a header. */
function request(curl: string, key: string) {
  const url = /\$LOC_URL([^\s"']+)/.exec(curl)?.[1];
  if (url === undefined) throw new Error(`no $LOC_URL in ${curl}`);
  const body = /-d '([^']*)'/.exec(curl)?.[1];
  const headers = Object.fromEntries([...curl.matchAll(/-H ["']([^:]+): ([^"']*)["']/g)].map(([, name, value]) => [name.toLowerCase(), value.replace('$LOC_API_KEY', key)]));
  return { method: body === undefined ? 'GET' as const : 'POST' as const, url, headers, ...(body === undefined ? {} : { payload: body }) };
}

const service = fileService();

describe('the examples of docs/api.md', () => {
  it('are there: a request and its answer for each endpoint, and an error', () => {
    expect(examples.map(({ curl }) => /\$LOC_URL([^\s"']+)/.exec(curl)?.[1])).toEqual([
      '/v1/embed/sessions', '/v1/embed/sessions', '/v1/embed/resolve', '/v1/loc/generate', '/v1/loc/lookup/US-550M-RQ5L',
      '/v1/loc/suggest?input=fr-0mrb-cly0&focus=48.8664,2.3177', '/v1/loc/search?q=sainte-foy-les&focus=45.7640,4.8357',
      '/v1/loc/grid?bbox=2.29451,48.85838,2.29455,48.85839&kind=cells', '/v1/loc/grid?bbox=2.2945,48.85836,2.29458,48.85842', '/v1/embed/sessions',
    ]);
  });

  it('get the answers they show', async () => {
    for (const { curl, answer } of examples) {
      const shown = JSON.parse(answer) as Record<string, unknown>;
      const got = json(await service.request(request(curl, service.secret)));
      // A new session's token is random, and its frame URL carries the token's public part.
      const expected = 'session_token' in shown
        ? { ...shown, session_token: expect.stringMatching(/^[\w-]{22}\.[\w-]{43}$/), embed_url: `https://loc.example/embed/frame/${String(got.session_token).split('.')[0]}` }
        : shown;
      expect({ curl, got }).toEqual({ curl, got: expected });
    }
  });
});
