#!/usr/bin/env node
import { CertificateStoreError, type KeptCertificate, keptCertificate } from './certificate-store';
import { type CertificateChoice, parseCliArguments } from './cli-options';
import { DEFAULT_CLI_PORT, USAGE } from './cli-usage';
import { type DeviceSimulator, startSimulator } from './simulator';
import { ZonesFileError } from './zones';

export const EXIT_USAGE = 2;
export { type CliParseResult, parseCliArguments } from './cli-options';
export { DEFAULT_CLI_PORT };

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** What a user sees at start. Says whether each password is blank or set, never the password itself. */
export function describeSimulator(simulator: DeviceSimulator, kept?: KeptCertificate): string[] {
  const state = simulator.getState();
  const zoneCount = Array.isArray(state.zones) ? String(state.zones.length) : 'not an array';
  return [
    'Conference audio device simulator',
    `  URL:          ${simulator.url}`,
    `  Fingerprint:  SHA-256 ${simulator.fingerprint256}`,
    ...(kept === undefined ? [] : [certificateLine(kept)]),
    `  Model:        ${state.model} (firmware ${state.firmwareVersion}, ${state.firmware}${state.firmware === 'layout' ? `, ${state.layoutSpelling} spelling` : ''})`,
    `  Vendor word:  ${state.vendor} (headers ${state.vendor}-Client-Id, ${state.vendor}-Client-Version)`,
    `  Accounts:     general password ${state.accounts.general}, admin password ${state.accounts.admin}`,
    `  Zones:        ${zoneCount}`,
    `  Talker:       ${state.talker}${state.muted ? ' (microphone muted)' : ''}`,
    `  Streams:      ${simulator.url}/api/v1/data?events=soundLocation,deviceMetrics, /api/v1/events, /api/v1/heartbeat`,
    `  Controls:     ${simulator.url}/_simulator/state`,
    'Press Ctrl+C to stop.',
  ];
}

function certificateLine(kept: KeptCertificate): string {
  return kept.origin === 'kept'
    ? `  Certificate:  kept in ${kept.certificateFile}`
    : `  Certificate:  new (${kept.reason ?? 'none kept'}), saved in ${kept.certificateFile}`;
}

async function certificateFor(
  choice: CertificateChoice | undefined,
  host: string | undefined,
): Promise<KeptCertificate | undefined> {
  if (choice === undefined) return undefined;
  return keptCertificate(choice.stateDir, host ?? '127.0.0.1', { renew: choice.renew });
}

/**
 * Runs the command line. Resolves with the exit code when it ends at once (help, bad flags, start failure),
 * or with the running simulator; the caller decides how to stop it.
 */
export async function main(
  argv: readonly string[],
  output: CliOutput = consoleOutput,
): Promise<{ exitCode: number; simulator?: DeviceSimulator }> {
  const parsed = parseCliArguments(argv);
  if (parsed.kind === 'help') {
    output.out(USAGE);
    return { exitCode: 0 };
  }
  if (parsed.kind === 'error') {
    output.err(`conference-audio-simulator: ${parsed.message}`);
    output.err('Run with --help for the options.');
    return { exitCode: EXIT_USAGE };
  }
  let simulator: DeviceSimulator;
  let kept: KeptCertificate | undefined;
  try {
    kept = await certificateFor(parsed.certificate, parsed.options.host);
    const tls = kept === undefined ? {} : { tls: { key: kept.certificate.key, cert: kept.certificate.cert } };
    simulator = await startSimulator({ ...parsed.options, ...tls });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const usageProblem =
      error instanceof TypeError || error instanceof ZonesFileError || error instanceof CertificateStoreError;
    output.err(`conference-audio-simulator: ${(error as Error).message}`);
    if (code === 'EADDRINUSE') output.err('Choose another --port.');
    return { exitCode: usageProblem ? EXIT_USAGE : 1 };
  }
  for (const line of describeSimulator(simulator, kept)) output.out(line);
  return { exitCode: 0, simulator };
}

if (require.main === module) {
  void main(process.argv.slice(2)).then(({ exitCode, simulator }) => {
    if (simulator === undefined) {
      process.exitCode = exitCode;
      return;
    }
    const stop = (signal: NodeJS.Signals): void => {
      consoleOutput.out(`${signal}: stopping the simulator.`);
      void simulator.close().then(() => {
        process.exitCode = 0;
        process.exit();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
