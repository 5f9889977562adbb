#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isLayoutSpelling, isSimulatorFirmware, isSimulatorModel, LAYOUT_SPELLINGS } from './guards';
import { type DeviceSimulator, startSimulator } from './simulator';
import type { SimulatorOptions } from './types';
import { ZonesFileError } from './zones';

export const EXIT_USAGE = 2;
export const DEFAULT_CLI_PORT = 8443;

const USAGE = `Usage: conference-audio-simulator [options]

A stand-in for a conferencing audio device's local HTTPS API, with a new
self-signed certificate at every start.

Options:
  --host <address>          listen address (default 127.0.0.1)
  --port <n>                listen port, 0 = any free port (default ${DEFAULT_CLI_PORT})
  --password <text>         password of the general account (default blank)
  --admin-password <text>   password of the admin account (default the enrollment code)
  --enrollment-code <code>  XXX-XXX-XXX (default KQ7-4MZ-9TD)
  --factory-reset           both passwords start as the enrollment code
  --model <310|410|X>       device model (default 410; only 410 serves zones)
  --zones <file>            JSON file: an array of zones or {"zones": [...]}
  --vendor <word>           word in the Authorization scheme and client header names (default Vendor)
  --firmware <classic|layout>
                            layout: zones only inside /api/v1/room/layout
  --layout-spelling <${LAYOUT_SPELLINGS.join('|')}>
                            how zone fields are spelled inside the layout
  --talker <walk|still|off> the talker on the sound-location stream (default walk: a scripted
                            walk through every zone, pauses in silence, speech outside the zones)
  --talker-at <x,y>         the talker stands and speaks at x,y (mm)
  --muted                   start with the microphone muted (error (soundLocation) events)
  --stall-streams           event streams send their headers and then nothing
  --sound-location-interval <ms>
                            between soundLocation events (default 200)
  --metrics-interval <ms>   between deviceMetrics events (default 5000)
  --stream-limit <n>        event-stream connections a minute per client (default 60)
  --help                    show this help

Controls for tests and demos: GET <url>/_simulator/state and the other
/_simulator/ endpoints (no authorization: keep the simulator on a trusted host).
Live streams: PUT /_simulator/talker {"x":..,"y":..} | {"mode":"walk"|"silent"},
PUT /_simulator/mute {"muted":true}, POST /_simulator/streams/drop,
POST /_simulator/streams/end, PUT /_simulator/streams/stall {"stalled":true},
POST /_simulator/change {"event":"ledStateUpdated","data":{...}}.`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export type CliParseResult =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; options: SimulatorOptions };

/** Turns command-line arguments into simulator options. Never throws. */
export function parseCliArguments(argv: readonly string[]): CliParseResult {
  let values: ReturnType<typeof parseFlags>['values'];
  try {
    values = parseFlags(argv).values;
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (values.help === true) return { kind: 'help' };

  const options: SimulatorOptions = { port: DEFAULT_CLI_PORT };
  if (values.host !== undefined) options.host = values.host;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      return { kind: 'error', message: `--port must be a number from 0 to 65535, not "${values.port}"` };
    }
    options.port = port;
  }
  if (values.model !== undefined) {
    if (!isSimulatorModel(values.model)) return { kind: 'error', message: '--model must be 310, 410 or X' };
    options.model = values.model;
  }
  if (values.firmware !== undefined) {
    if (!isSimulatorFirmware(values.firmware)) {
      return { kind: 'error', message: '--firmware must be classic or layout' };
    }
    options.firmware = values.firmware;
  }
  const spelling = values['layout-spelling'];
  if (spelling !== undefined) {
    if (!isLayoutSpelling(spelling)) {
      return { kind: 'error', message: `--layout-spelling must be one of ${LAYOUT_SPELLINGS.join(', ')}` };
    }
    options.layoutSpelling = spelling;
  }
  if (values.vendor !== undefined) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(values.vendor)) {
      return {
        kind: 'error',
        message: '--vendor must be a word of letters and digits, starting with a letter',
      };
    }
    options.vendor = values.vendor;
  }
  const enrollmentCode = values['enrollment-code'];
  if (enrollmentCode !== undefined) {
    if (!/^[A-Z0-9]{3}-[A-Z0-9]{3}-[A-Z0-9]{3}$/.test(enrollmentCode)) {
      return { kind: 'error', message: '--enrollment-code must look like KQ7-4MZ-9TD' };
    }
    options.enrollmentCode = enrollmentCode;
  }
  const adminPassword = values['admin-password'];
  if (values.password !== undefined || adminPassword !== undefined) {
    options.passwords = {
      ...(values.password === undefined ? {} : { general: values.password }),
      ...(adminPassword === undefined ? {} : { admin: adminPassword }),
    };
  }
  if (values['factory-reset'] === true) options.factoryReset = true;
  if (values.zones !== undefined) options.zonesFile = values.zones;
  const talker = values.talker;
  if (talker !== undefined) {
    if (talker !== 'walk' && talker !== 'still' && talker !== 'off') {
      return { kind: 'error', message: '--talker must be walk, still or off' };
    }
    options.talker = talker;
  }
  if (values['talker-at'] !== undefined) {
    const parts = values['talker-at'].split(',').map((part) => Number(part.trim()));
    const [x, y] = parts;
    if (
      parts.length !== 2 ||
      x === undefined ||
      y === undefined ||
      !Number.isFinite(x) ||
      !Number.isFinite(y)
    ) {
      return { kind: 'error', message: '--talker-at must be two numbers in mm, as x,y (for example 0,2000)' };
    }
    options.talkerAt = { x, y };
  }
  if (values.muted === true) options.muted = true;
  if (values['stall-streams'] === true) options.stallStreams = true;
  const numeric = [
    ['sound-location-interval', 'soundLocationIntervalMs'],
    ['metrics-interval', 'metricsIntervalMs'],
    ['stream-limit', 'streamConnectionsPerMinute'],
  ] as const;
  for (const [flag, option] of numeric) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) {
      return { kind: 'error', message: `--${flag} must be a whole number of at least 1, not "${raw}"` };
    }
    options[option] = value;
  }
  return { kind: 'run', options };
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      password: { type: 'string' },
      'admin-password': { type: 'string' },
      'enrollment-code': { type: 'string' },
      'factory-reset': { type: 'boolean' },
      model: { type: 'string' },
      zones: { type: 'string' },
      vendor: { type: 'string' },
      firmware: { type: 'string' },
      'layout-spelling': { type: 'string' },
      talker: { type: 'string' },
      'talker-at': { type: 'string' },
      muted: { type: 'boolean' },
      'stall-streams': { type: 'boolean' },
      'sound-location-interval': { type: 'string' },
      'metrics-interval': { type: 'string' },
      'stream-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** What a user sees at start. Says whether each password is blank or set, never the password itself. */
export function describeSimulator(simulator: DeviceSimulator): string[] {
  const state = simulator.getState();
  const zoneCount = Array.isArray(state.zones) ? String(state.zones.length) : 'not an array';
  return [
    'Conference audio device simulator',
    `  URL:          ${simulator.url}`,
    `  Fingerprint:  SHA-256 ${simulator.fingerprint256}`,
    `  Model:        ${state.model} (firmware ${state.firmware}${state.firmware === 'layout' ? `, ${state.layoutSpelling} spelling` : ''})`,
    `  Vendor word:  ${state.vendor} (headers ${state.vendor}-Client-Id, ${state.vendor}-Client-Version)`,
    `  Accounts:     general password ${state.accounts.general}, admin password ${state.accounts.admin}`,
    `  Zones:        ${zoneCount}`,
    `  Talker:       ${state.talker}${state.muted ? ' (microphone muted)' : ''}`,
    `  Streams:      ${simulator.url}/api/v1/data?events=soundLocation,deviceMetrics, /api/v1/events, /api/v1/heartbeat`,
    `  Controls:     ${simulator.url}/_simulator/state`,
    'Press Ctrl+C to stop.',
  ];
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
  try {
    simulator = await startSimulator(parsed.options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const usageProblem = error instanceof TypeError || error instanceof ZonesFileError;
    output.err(`conference-audio-simulator: ${(error as Error).message}`);
    if (code === 'EADDRINUSE') output.err('Choose another --port.');
    return { exitCode: usageProblem ? EXIT_USAGE : 1 };
  }
  for (const line of describeSimulator(simulator)) output.out(line);
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
