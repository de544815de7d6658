/**
 * The keys of `loc mock`: any well-formed test key works, with nothing to set up. The first request
 * that presents one makes it a partner account of its own and a test key, so each key keeps its own
 * saved locations and limits, as on the real service. Live keys are refused: a mock that took them
 * would invite a live key into a CI configuration.
 *
 * Every origin of this machine (localhost, 127.x.x.x, [::1], any port) is allowed for every key, as
 * it is first used — in an `Origin` header or as a session's origin — so that whatever port a test
 * server gets works. Sessions for any other origin are refused with origin_not_allowed. Registered
 * before the auth plugin, whose hook then finds the key and its origins as for any other.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isLoopbackOrigin, originProblem } from '../../auth/origin.ts';
import { TEST_KEY_PREFIX, hashSecret, looksLikeApiKey } from '../../auth/secrets.ts';
import { LocError, describeValue } from '../../errors.ts';
import type { ApiKey } from '../../store/store.ts';

/** The route whose body names an origin. */
const SESSIONS_ROUTE = '/v1/embed/sessions';

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export default fp(
  async (app) => {
    /** Keys being provisioned, by hash: two first requests at once make one account, not a conflict. */
    const provisioning = new Map<string, Promise<ApiKey>>();

    async function provision(hash: string): Promise<ApiKey> {
      const found = await app.store.findKeyByHash(hash);
      if (found !== null) return found.key;
      const createdAt = app.now();
      const account = await app.store.createAccount({ name: `mock-${hash.slice(0, 16)}`, partner: true, createdAt });
      return app.store.createKey({
        accountId: account.id, hash, mode: 'test', label: 'loc mock', origins: [], ipRanges: [],
        hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null, createdAt,
      });
    }

    /** The key behind a test key's secret, made on its first use. */
    function keyOf(secret: string): Promise<ApiKey> {
      const hash = hashSecret(secret);
      let pending = provisioning.get(hash);
      if (pending === undefined) {
        pending = provision(hash).finally(() => provisioning.delete(hash));
        provisioning.set(hash, pending);
      }
      return pending;
    }

    async function allowOrigin(key: ApiKey, origin: string): Promise<ApiKey> {
      if (key.origins.includes(origin)) return key;
      return (await app.store.updateKeyList(key.id, 'origins', { add: origin }))?.after ?? key;
    }

    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (request.routeOptions.config.auth === undefined) return;
      const presented = single(request.headers['x-api-key'])?.trim();
      // Anything that is not a key is the auth plugin's to refuse, in its words.
      if (presented === undefined || !looksLikeApiKey(presented)) return;
      if (!presented.startsWith(TEST_KEY_PREFIX)) {
        throw new LocError('invalid_api_key', `loc mock takes test keys only (${TEST_KEY_PREFIX}…), never a live key; use any ${TEST_KEY_PREFIX} key, such as the one it printed at start.`);
      }
      const key = await keyOf(presented);
      const origin = single(request.headers.origin);
      if (origin !== undefined && isLoopbackOrigin(origin)) await allowOrigin(key, origin);
    });

    // After auth and the body's validation: the origin a session is asked for.
    app.addHook('preHandler', async (request) => {
      const caller = request.caller;
      if (request.routeOptions.url !== SESSIONS_ROUTE || caller === null) return;
      const origin = (request.body as { origin?: unknown }).origin;
      // An origin the embed refuses anyway is the route's to refuse, as loc serve does.
      if (typeof origin !== 'string' || originProblem(origin) !== null) return;
      if (!isLoopbackOrigin(origin)) {
        throw new LocError(
          'origin_not_allowed',
          `loc mock makes sessions for pages on this machine only (localhost, 127.0.0.1, any port), not for ${describeValue(origin)}.`,
          'origin',
        );
      }
      caller.key = await allowOrigin(caller.key, origin);
    });
  },
  { name: 'loc-mock-keys', fastify: '5.x', dependencies: ['loc-config', 'loc-store'] },
);
