/**
 * Child-process entry: starts `count` device simulators in this process and prints one JSON line
 * `{"simulators":[{"url","fingerprint256"}]}` on stdout once all listen. Ends on SIGTERM or when stdin
 * closes (the parent died), closing every simulator. Benchmarks keep the simulators out of the measured
 * process this way, so the device's work is not counted as the package's.
 *
 * Usage: node --require tsx/cjs bench/lib/simulator-host.ts <count> [SimulatorOptions as JSON]
 */
import { type SimulatorOptions, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? '1');
  if (!Number.isInteger(count) || count < 1) throw new Error('count must be an integer >= 1');
  const options = JSON.parse(process.argv[3] ?? '{}') as SimulatorOptions;
  // One certificate for every simulator of the host: making hundreds of keys would take minutes.
  const tls = options.tls ?? (await createCertificate(options.host ?? '127.0.0.1'));
  const simulators = await Promise.all(
    Array.from({ length: count }, () => startSimulator({ ...options, tls })),
  );
  const stop = () => {
    void Promise.all(simulators.map((simulator) => simulator.close())).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
  process.stdout.write(
    `${JSON.stringify({
      simulators: simulators.map((simulator) => ({
        url: simulator.url,
        fingerprint256: simulator.fingerprint256,
      })),
    })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
