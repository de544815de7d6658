/**
 * What a metric group is: a function that makes one part's metrics on the app's registry when the
 * metrics plugin registers (plugin.ts), and may add the hooks that feed them. A group that reads
 * another plugin's decorator (`app.store`, …) reads it lazily, in a metric's `collect()` or an
 * `onReady` hook: the metrics plugin registers before them.
 *
 * prom-client is imported as types only, and reaches a group as its third argument: dist/cli.js is
 * one bundle, in which a static import of a package, however deep, is hoisted to the top and would
 * load prom-client at every start, metrics on or off.
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export type { Registry };

/** prom-client itself, loaded once metrics are on (plugin.ts). */
export type PromClient = typeof import('prom-client');

export type MetricGroup = (app: FastifyInstance, registry: Registry, prom: PromClient) => void;
