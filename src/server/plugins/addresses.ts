/**
 * The addresses plugin: the address of a cell, offline or from the configured reverse geocoder, and
 * the geocoder's forward search when the operator turned it on (`LOC_GEOCODER_SEARCH`).
 */
import fp from 'fastify-plugin';
import { createAddresses, type Addresses } from '../../address/addresses.ts';
import { nominatimSearch, type ForwardGeocoder } from '../../address/nominatim.ts';

declare module 'fastify' {
  interface FastifyInstance {
    addressBook: Addresses;
    /** Places by name from the geocoder; null unless the operator turned it on. */
    forwardGeocoder: ForwardGeocoder | null;
  }
}

export default fp(
  async (app) => {
    const userAgent = `loc (+${app.config.publicUrl})`;
    app.decorate('addressBook', createAddresses({
      geocoderUrl: app.config.geocoderUrl,
      geocoderTimeoutMs: app.config.geocoderTimeoutMs,
      userAgent,
      now: app.now,
    }));
    const { geocoderUrl, geocoderSearch, geocoderTimeoutMs } = app.config;
    app.decorate('forwardGeocoder', geocoderSearch && geocoderUrl !== null
      ? nominatimSearch({ url: geocoderUrl, timeoutMs: geocoderTimeoutMs, userAgent, now: app.now })
      : null);
  },
  { name: 'loc-addresses', fastify: '5.x', dependencies: ['loc-config'] },
);
