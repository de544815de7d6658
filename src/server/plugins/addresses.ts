/** The addresses plugin: the address of a cell, offline or from the configured reverse geocoder. */
import fp from 'fastify-plugin';
import { createAddresses, type Addresses } from '../../address/addresses.ts';

declare module 'fastify' {
  interface FastifyInstance {
    addressBook: Addresses;
  }
}

export default fp(
  async (app) => {
    app.decorate('addressBook', createAddresses({
      geocoderUrl: app.config.geocoderUrl,
      geocoderTimeoutMs: app.config.geocoderTimeoutMs,
      userAgent: `loc (+${app.config.publicUrl})`,
      now: app.now,
    }));
  },
  { name: 'loc-addresses', fastify: '5.x', dependencies: ['loc-config'] },
);
