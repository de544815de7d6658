/**
 * The service run as a process, for `loc serve` and `loc mock`: one server until a signal has closed
 * it, or a cluster's primary (server/cluster.ts). The commands import it when they run, so that the
 * server's code — Fastify, its plugins, the app — is loaded by no other command.
 */
import { PRIMARY, runPrimary, type ClusterWorker } from '../server/process/cluster.ts';
import type { Config } from '../server/config.ts';
import { misspelledSettings } from '../server/misspelled-settings.ts';
import { openLogDestination, type LogDestination } from '../server/logs/log-destination.ts';
import { shutdownOnSignal, startServer, type RunningServer, type StartOptions } from '../server/process/server.ts';
import { StartFailure } from '../server/process/start-failure.ts';
import type { CliIo } from './cli-io.ts';

/**
 * Runs the service until a signal has closed it, its banner and logs on stdout (the log destination);
 * resolves with the exit code. A start that cannot go on is one line on `io`'s stderr and exit code 1;
 * anything else is a bug, thrown with its stack. In a cluster (server/cluster.ts) the primary runs the
 * workers instead of a server, and a worker leaves the warnings and the reason its start failed to
 * the primary, which says them once.
 */
export async function runService(config: Config, options: StartOptions, io: CliIo, role?: 'primary' | ClusterWorker): Promise<number> {
  // The service's own output goes through the log destination. What is written to Node's
  // streams — a few lines on stderr, anything a worker thread prints — is lost when nobody can
  // read it any more (EPIPE) or it cannot be stored (ENOSPC, EFBIG), and the service goes on.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const worker = typeof role === 'object' ? role : undefined;
  if (worker === undefined) for (const warning of misspelledSettings(io.env)) io.stderr(`${warning}\n`);
  const output = openLogDestination({ worker: role === 'primary' ? PRIMARY : worker?.number });
  let ended: number | StartFailure;
  try {
    ended = role === 'primary' ? await runPrimary(config, options, output) : await serve(config, options, output);
  } catch (error) {
    if (!(error instanceof StartFailure)) throw error;
    ended = error;
  } finally {
    await output.close();
  }
  if (typeof ended === 'number') return ended;
  if (worker !== undefined) await worker.reportFailure(ended.message);
  // After the banner is out: the reason a start failed is the last line the operator sees.
  else io.stderr(`error: ${ended.message}\n`);
  return 1;
}

/** Runs one server until a signal has closed it; resolves with the exit code. */
async function serve(config: Config, options: StartOptions, output: LogDestination): Promise<number> {
  const print = (line: string): void => output.write(`${line}\n`);
  const signals = shutdownOnSignal(config, output);
  let server: RunningServer;
  try {
    server = await startServer(config, { ...options, logStream: output, print });
  } catch (error) {
    signals.stop();
    throw error;
  }
  return signals.closeOn(server);
}
