import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DEFAULT_CLI_PORT } from './cli-usage';
import { OptionError, validateOptions } from './options';
import { sampleProfiles } from './resources/profiles';
import type * as Sim from './types';

export type CliParseResult =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; options: Sim.SimulatorOptions; certificate?: CertificateChoice };

/** Where the certificate is kept (`--state-dir`), and whether to replace it (`--new-certificate`). */
export interface CertificateChoice {
  stateDir: string;
  renew: boolean;
}

/** The flag of each option, to name it in a refusal. */
const FLAG_OF: Partial<Record<keyof Sim.SimulatorOptions, string>> = {
  enrollmentCode: 'enrollment-code',
  factoryReset: 'factory-reset',
  zonesFile: 'zones',
  layoutSpelling: 'layout-spelling',
  layoutZoneExtras: 'layout-zone-extras',
  talkerAt: 'talker-at',
  soundLocationIntervalMs: 'sound-location-interval',
  metricsIntervalMs: 'metrics-interval',
  streamConnectionsPerMinute: 'stream-limit',
  rateLimitPerMinute: 'rate-limit',
  rateLimitStatus: 'rate-limit-status',
  firmwareVersion: 'firmware-version',
  barUnplugged: 'bar-unplugged',
  leds: 'led-console or --led-network',
  usbEventForm: 'usb-event',
  activeProfile: 'active-profile',
  calibrationMs: 'calibration-time',
  volumeScale: 'volume-range and --volume-step',
  writeAnswer: 'write-answer',
  bodylessEvents: 'bodyless-events',
};

class FlagError extends Error {}

/** Turns command-line arguments into simulator options, checked by the same rules as the library's. Never throws. */
export function parseCliArguments(argv: readonly string[]): CliParseResult {
  let options: Sim.SimulatorOptions;
  let certificate: CertificateChoice | undefined;
  try {
    const { values } = parseFlags(argv);
    if (values.help === true) return { kind: 'help' };
    options = optionsOf(values);
    validateOptions(options);
    certificate = certificateChoice(values);
  } catch (error) {
    if (error instanceof OptionError) {
      return { kind: 'error', message: `--${FLAG_OF[error.option] ?? error.option} ${error.problem}` };
    }
    return { kind: 'error', message: (error as Error).message };
  }
  return { kind: 'run', options, ...(certificate === undefined ? {} : { certificate }) };
}

function certificateChoice(values: FlagValues): CertificateChoice | undefined {
  const stateDir = values['state-dir'];
  const renew = values['new-certificate'] === true;
  if (stateDir === undefined) {
    if (renew) {
      throw new FlagError(
        '--new-certificate needs --state-dir: without it every start makes a new certificate',
      );
    }
    return undefined;
  }
  if (stateDir.trim() === '') throw new FlagError('--state-dir needs a folder');
  return { stateDir, renew };
}

type FlagValues = ReturnType<typeof parseFlags>['values'];

/** Only the flags given become options; their rules are checked by `validateOptions`. */
function optionsOf(values: FlagValues): Sim.SimulatorOptions {
  const number = (raw: string): number => (/^\d+$/.test(raw) ? Number(raw) : Number.NaN);
  const list = (raw: string): string[] =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const given = <T>(raw: string | undefined, convert: (raw: string) => T): T | undefined =>
    raw === undefined ? undefined : convert(raw);
  const adminPassword = values['admin-password'];
  const passwords =
    values.password === undefined && adminPassword === undefined
      ? undefined
      : {
          ...(values.password === undefined ? {} : { general: values.password }),
          ...(adminPassword === undefined ? {} : { admin: adminPassword }),
        };
  const leds = {
    ...given(values['led-console'], (raw) => ({ console: light(raw) })),
    ...given(values['led-network'], (raw) => ({ networkA: light(raw) })),
  };
  const profiles = given(values.profiles, (raw) =>
    list(raw).map((name) => ({ profileId: randomUUID(), name })),
  );
  const activeName = values['active-profile'];
  const range = values['volume-range'];
  const step = values['volume-step'];
  const options: Sim.SimulatorOptions = {
    port: given(values.port, number) ?? DEFAULT_CLI_PORT,
    host: values.host,
    model: values.model as Sim.SimulatorModel | undefined,
    firmware: values.firmware as Sim.SimulatorFirmware | undefined,
    layoutSpelling: values['layout-spelling'] as Sim.LayoutSpelling | undefined,
    vendor: values.vendor,
    enrollmentCode: values['enrollment-code'],
    passwords,
    factoryReset: values['factory-reset'],
    zonesFile: values.zones,
    talker: values.talker as Sim.SimulatorOptions['talker'],
    talkerAt: given(values['talker-at'], point),
    muted: values.muted,
    stallStreams: values['stall-streams'],
    soundLocationIntervalMs: given(values['sound-location-interval'], number),
    metricsIntervalMs: given(values['metrics-interval'], number),
    streamConnectionsPerMinute: given(values['stream-limit'], number),
    rateLimitPerMinute: given(values['rate-limit'], number),
    rateLimitStatus: given(values['rate-limit-status'], number) as 429 | 409 | undefined,
    firmwareVersion: values['firmware-version'],
    barUnplugged: values['bar-unplugged'],
    leds: Object.keys(leds).length === 0 ? undefined : leds,
    usb: values.usb as Sim.ConnectionStatus | undefined,
    components: values.components as Sim.ConnectionStatus | undefined,
    usbEventForm: values['usb-event'] as Sim.UsbEventForm | undefined,
    profiles,
    activeProfile: given(activeName, (name) => activeProfileId(name, profiles ?? sampleProfiles())),
    calibrationMs: given(values['calibration-time'], number),
    volumeScale:
      range === undefined && step === undefined
        ? undefined
        : ({ max: number(range ?? '20'), step: number(step ?? '1') } as Sim.VolumeScale),
    writeAnswer: values['write-answer'] as Sim.WriteAnswer | undefined,
    bodylessEvents: given(values['bodyless-events'], list),
    layoutZoneExtras: given(values['layout-zone-extras'], json),
  };
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Sim.SimulatorOptions;
}

function point(raw: string): { x: number; y: number } {
  const parts = raw.split(',').map((part) => Number(part.trim()));
  const [x, y] = parts;
  if (
    parts.length !== 2 ||
    x === undefined ||
    y === undefined ||
    !Number.isFinite(x) ||
    !Number.isFinite(y)
  ) {
    throw new FlagError('--talker-at must be two numbers in mm, as x,y (for example 0,2000)');
  }
  return { x, y };
}

function light(raw: string): Sim.LedLight {
  const [colour, state] = raw.split(',').map((part) => part.trim());
  return { colour, state } as Sim.LedLight;
}

function json(raw: string): Record<string, unknown> {
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new FlagError('--layout-zone-extras must be a JSON object, for example {"on":true}');
  }
}

function activeProfileId(name: string, profiles: Sim.SimulatorProfile[]): string {
  const profile = profiles.find((candidate) => candidate.name === name);
  if (profile === undefined) {
    throw new FlagError(
      `--active-profile must be one of ${profiles.map((candidate) => candidate.name).join(', ')}`,
    );
  }
  return profile.profileId;
}

function parseFlags(argv: readonly string[]) {
  const text = { type: 'string' } as const;
  const flag = { type: 'boolean' } as const;
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: text,
      port: text,
      password: text,
      'admin-password': text,
      'enrollment-code': text,
      'factory-reset': flag,
      model: text,
      zones: text,
      vendor: text,
      firmware: text,
      'firmware-version': text,
      'layout-spelling': text,
      'layout-zone-extras': text,
      talker: text,
      'talker-at': text,
      muted: flag,
      'stall-streams': flag,
      'sound-location-interval': text,
      'metrics-interval': text,
      'stream-limit': text,
      'rate-limit': text,
      'rate-limit-status': text,
      'bar-unplugged': flag,
      'led-console': text,
      'led-network': text,
      usb: text,
      components: text,
      'usb-event': text,
      profiles: text,
      'active-profile': text,
      'calibration-time': text,
      'volume-range': text,
      'volume-step': text,
      'write-answer': text,
      'bodyless-events': text,
      'state-dir': text,
      'new-certificate': flag,
      help: { type: 'boolean', short: 'h' },
    },
  });
}
