/**
 * The banner of a started service: where it listens, its public URL and main addresses (the panel's
 * among them, with how to let a person in), a warning
 * when that URL cannot be right, and the ready line last (ready-line.ts). Printed once per service:
 * by the server itself, or by a cluster's primary once every worker listens (cluster.ts).
 */
import { join } from 'node:path';
import type { AppOptions } from '../app.ts';
import { defaultPublicUrl, OPTIONS, type Config } from '../config.ts';
import { DEV_KEY_FILE } from './dev-seed.ts';
import { readyLine } from './ready-line.ts';
import { hostPort } from './start-failure.ts';
import { metricsUrlOf } from '../metrics/listener.ts';

export interface BannerOptions {
  /** Whether the development key was seeded (`--seed-dev`): the ready line names its file. */
  seedDevelopment?: boolean;
  /** Lines the banner adds before its ready line, from the address it got (`loc mock`: its key, how to call it). */
  bannerNotes?: (config: Config) => readonly string[];
  /** The `worker` of the ready line: a cluster's primary prints the banner (cluster.ts). */
  worker?: number;
}

/** The banner of a service listening on `port` of `config.host`, which `config` names with its real ports. */
export function bannerLines(config: Config, port: number, options: BannerOptions & Pick<AppOptions, 'mock'> = {}): string[] {
  const url = `http://${hostPort(config.host, port)}`;
  const base = config.publicUrl;
  const metricsUrl = config.metricsPort === null ? undefined : metricsUrlOf(config.metricsHost, config.metricsPort);
  const lines = [
    `loc is listening on ${url} (public URL ${base})`,
    `  API        ${base}/v1/…   docs ${base}/docs   OpenAPI ${base}/openapi.json`,
    `  share page ${base}/{code}   health ${base}/healthz`,
    // `loc mock` has no partner panel: it keeps no users.
    ...(options.mock ? [] : [`  panel      ${base}/panel   (let a person in: loc accounts invite --account NAME --email EMAIL)`]),
    ...(metricsUrl === undefined ? [] : [`  metrics    ${metricsUrl}   (no key asked: keep it off the public network)`]),
  ];
  if (base === defaultPublicUrl(port) && !isLoopback(config.host)) {
    lines.push(
      `warning: ${hostPort(config.host, port)} takes connections from other machines, but ${OPTIONS.publicUrl.env} is not set: share_url, embed_url ` +
        `and the embed's script name ${base}; set ${OPTIONS.publicUrl.env} to the URL clients use, unless they too reach the service as localhost (a port published from a container)`,
    );
  }
  lines.push(...(options.bannerNotes?.(config) ?? []));
  lines.push(readyLine(url, base, { devKeyFile: options.seedDevelopment ? join(config.dataDir, DEV_KEY_FILE) : undefined, worker: options.worker, metricsUrl }));
  return lines;
}

/** Whether `host` is reachable from this machine only, so that the default public URL (localhost) fits it. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
