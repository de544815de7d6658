/**
 * The client's address behind a trusted proxy (LOC_TRUST_PROXY): Fastify takes it from
 * `X-Forwarded-For`, whatever that holds. A value that is not an IP address — a proxy passing on what
 * the client wrote, or a placeholder such as `unknown` — would become the address that key IP ranges
 * are checked against, that the sign-in throttle counts, and that a key's last use and the audit log
 * keep. Such a request is taken as coming from the proxy itself: the header is dropped, and the
 * socket's address counts.
 */
import fp from 'fastify-plugin';
import { isIpAddress } from '../../auth/ip-range.ts';

export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      if (request.raw.headers['x-forwarded-for'] === undefined || isIpAddress(request.ip)) return;
      delete request.raw.headers['x-forwarded-for'];
    });
  },
  { name: 'loc-client-address', fastify: '5.x' },
);
