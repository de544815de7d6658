/**
 * npm as the integrator tests run it (packing this checkout's packages, installing them elsewhere):
 * without the settings `npm test` exports for the checkout, which would point an install back at it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** npm's settings from the environment, without those `npm test` exports for the checkout (its prefix above all). */
export function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_registry', 'npm_config_cafile']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || keep.has(name.toLowerCase())));
}

/** Runs npm with `args` in `cwd`, with npmEnv(). */
export const npm = (args: string[], cwd: string) => promisify(execFile)('npm', args, { cwd, env: npmEnv(), maxBuffer: 16 * 1024 * 1024 });
