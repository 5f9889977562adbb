/**
 * Child-process entry: starts `count` device simulators in this process and prints one JSON line
 * `{"simulators":[{"url","fingerprint256"}]}` on stdout once all listen. Ends on SIGTERM or when stdin
 * closes (the parent died), closing every simulator. Benchmarks keep the simulators out of the measured
 * process this way, so the device's work is not counted as the package's.
 *
 * After that, each line the parent writes on stdin is a query answered by one JSON line on stdout, in
 * order: `stats` (HostedStats of every simulator, in start order) or `reset` (the simulators' records and
 * counters back to empty; answers `{}`). A thousand simulators are read this way in a few milliseconds
 * and without a TLS request each, which would load the machine being measured.
 *
 * Usage: node --require tsx/cjs bench/lib/simulator-host.ts <count> [SimulatorOptions as JSON]
 */
import { DEVICE_PATHS } from '../../src/api/protocol';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';
import { serveQueries } from './line-child';
import type { HostedStats } from './simulator-process';

function statsOf(simulator: DeviceSimulator, atMs: number): HostedStats {
  const loginTimes: number[] = [];
  const dataStreamTimes: number[] = [];
  for (const recorded of simulator.requests) {
    if (recorded.status !== 200) continue;
    if (recorded.path === DEVICE_PATHS.login) loginTimes.push(recorded.time);
    else if (recorded.path === DEVICE_PATHS.data) dataStreamTimes.push(recorded.time);
  }
  const { logins, failedLogins, rateLimited, streamConnections, requestsByPath } = simulator.counters;
  return {
    atMs,
    openStreams: simulator.openStreams,
    soundLocationsWritten: simulator.soundLocationsWritten,
    logins,
    failedLogins,
    rateLimited,
    streamConnections,
    requestsByPath,
    connections: simulator.stats().connections,
    loginTimes,
    dataStreamTimes,
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? '1');
  if (!Number.isInteger(count) || count < 1) throw new Error('count must be an integer >= 1');
  const options = JSON.parse(process.argv[3] ?? '{}') as SimulatorOptions;
  // One certificate for every simulator of the host: making hundreds of keys would take minutes.
  const tls = options.tls ?? (await createCertificate(options.host ?? '127.0.0.1'));
  const simulators = await Promise.all(
    Array.from({ length: count }, () => startSimulator({ ...options, tls })),
  );
  serveQueries(
    {
      simulators: simulators.map((simulator) => ({
        url: simulator.url,
        fingerprint256: simulator.fingerprint256,
      })),
    },
    {
      reset: () => {
        for (const simulator of simulators) simulator.resetRecords();
        return {};
      },
      stats: () => {
        const atMs = Date.now();
        return { stats: simulators.map((simulator) => statsOf(simulator, atMs)) };
      },
    },
    () => Promise.all(simulators.map((simulator) => simulator.close())),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
