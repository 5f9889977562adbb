import { createCertificate, fingerprintOf } from './certificate';
import { checkOption, validateOptions } from './options';
import { buildParts, type DeviceParts } from './parts';
import { SimulatorServer } from './server';
import { describeState } from './state';
import type {
  AnswerEncoding,
  CameraSwitcherFields,
  ConnectionStatus,
  ErrorFormat,
  LayoutSpelling,
  LedLight,
  LedName,
  NetworkFields,
  RecordedRequest,
  SimulatorAccount,
  SimulatorControls,
  SimulatorCounters,
  SimulatorFault,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  SimulatorProfile,
  SimulatorState,
  SimulatorStats,
  UsbEventForm,
  VolumeScale,
  WriteAnswer,
} from './types';
import { loadZonesFile, sampleZones } from './zones';

export { DEFAULT_ENROLLMENT_CODE } from './settings';

/**
 * An HTTPS stand-in for a conferencing audio device. Start it with `startSimulator`. Its methods are the
 * controls a test or a demo uses: what a person would do to a real device (unplug a bar, switch a profile in
 * the vendor's app) and the variants real devices differ in. Each change a device announces is announced.
 */
export class DeviceSimulator implements SimulatorControls {
  readonly certificatePem: string;
  readonly fingerprint256: string;
  readonly #parts: DeviceParts;
  readonly #server: SimulatorServer;

  private constructor(parts: DeviceParts, tls: { key: string; cert: string }, host: string) {
    this.#parts = parts;
    this.#server = new SimulatorServer(parts, host, tls, this);
    this.certificatePem = tls.cert;
    this.fingerprint256 = fingerprintOf(tls.cert);
  }

  /** Use `startSimulator`; this is its implementation. */
  static async start(options: SimulatorOptions = {}): Promise<DeviceSimulator> {
    validateOptions(options);
    const host = options.host ?? '127.0.0.1';
    const zones =
      options.zones ??
      (options.zonesFile === undefined ? sampleZones() : await loadZonesFile(options.zonesFile));
    const tls = options.tls ?? (await createCertificate(host));
    const simulator = new DeviceSimulator(buildParts(options, zones, host), tls, host);
    await simulator.#server.listen(options.port ?? 0);
    return simulator;
  }

  get vendor(): string {
    return this.#parts.settings.vendor;
  }
  get enrollmentCode(): string {
    return this.#parts.settings.enrollmentCode;
  }
  get host(): string {
    return this.#server.host;
  }
  get port(): number {
    return this.#server.port;
  }
  /** `https://127.0.0.1:PORT`. */
  get url(): string {
    return this.#server.url;
  }
  /** Every device request, newest last (live array; `/_simulator/` requests are not in it). */
  get requests(): RecordedRequest[] {
    return this.#parts.log.requests;
  }
  /** Live counters since the last `resetRecords`. */
  get counters(): SimulatorCounters {
    return this.#parts.log.counters;
  }
  /** A snapshot of the counters plus every HTTP request and TCP connection since the start. */
  stats(): SimulatorStats {
    return this.#parts.log.stats();
  }
  /** Every token handed out, oldest first, for tests that look for a leaked secret. Never in the state. */
  get issuedTokens(): string[] {
    return this.#parts.accounts.issuedTokens;
  }
  /** Stream connections open now. */
  get openStreams(): number {
    return this.#parts.streams.openCount;
  }

  setPassword(account: SimulatorAccount, password: string): void {
    if (account !== 'general' && account !== 'admin') throw new TypeError('account must be general or admin');
    if (typeof password !== 'string') throw new TypeError('password must be a string');
    this.#parts.accounts.setPassword(account, password);
  }

  /** Both passwords become the enrollment code; every token stops working; audio settings go back. Zones are kept. */
  factoryReset(): void {
    this.#parts.accounts.setPassword('general', this.enrollmentCode);
    this.#parts.accounts.setPassword('admin', this.enrollmentCode);
    this.#parts.audio.reset();
    this.reboot();
  }

  /** Every token stops working and a calibration stops; passwords and zones are kept. */
  reboot(): void {
    this.#parts.accounts.forgetTokens();
    this.#parts.rateLimiter.clear();
    this.#parts.streamLimiter.clear();
    this.#parts.calibration.stop();
    this.#parts.streams.drop();
  }

  /** Announced as a layout change on a 410, as a device announces an edit in its management app. */
  setZones(zones: unknown[]): void {
    this.#parts.room.zones = zones;
    this.#parts.room.announce();
  }

  /** The talker stands at `point` (mm) and speaks; the scripted walk stops. */
  placeTalker(point: { x: number; y: number; powerLevel?: number }): void {
    checkOption('talkerAt', point);
    if (point.powerLevel !== undefined && !Number.isFinite(point.powerLevel)) {
      throw new TypeError('powerLevel must be a finite number');
    }
    this.#parts.talker.place(point, point.powerLevel);
  }
  /** Readings go on with nothing heard (powerLevel 0, voiceDetected false). */
  silenceTalker(): void {
    this.#parts.talker.silence();
  }
  /** The scripted walk between the zones resumes. */
  walkTalker(): void {
    this.#parts.talker.walk();
  }
  /** While muted, soundLocation stops and `error (soundLocation)` (503) comes at once and then repeatedly. */
  setMuted(muted: boolean): void {
    this.#parts.streams.setMuted(muted === true);
  }
  /** Breaks every open stream off, as a network drop would. */
  dropStreams(): void {
    this.#parts.streams.drop();
  }
  /** Ends every open stream response cleanly. */
  endStreams(): void {
    this.#parts.streams.end();
  }
  /** While stalled, streams send headers and then no byte at all. */
  stallStreams(stalled: boolean): void {
    this.#parts.streams.setStalled(stalled === true);
  }

  /** A change event on every `/api/v1/events` stream; `undefined` data sends an empty data line. */
  emitChange(name: string, data: unknown): void {
    if (typeof name !== 'string' || name === '' || /[\r\n]/.test(name)) {
      throw new TypeError('change event name must be one line of text');
    }
    this.#parts.streams.emitChange(name, data);
  }

  /** Announced as a hardware change when the model changes. */
  setModel(model: SimulatorModel): void {
    checkOption('model', model);
    this.#changeHardware(() => {
      this.#parts.settings.model = model;
    });
  }

  /** Where the zones live (`classic` or `layout`), and how the layout spells them. */
  setFirmware(firmware: SimulatorFirmware, spelling?: LayoutSpelling): void {
    checkOption('firmware', firmware);
    checkOption('layoutSpelling', spelling);
    this.#parts.settings.firmware = firmware;
    if (spelling !== undefined) this.#parts.room.spelling = spelling;
  }

  /** The version every firmware floor is compared with; announced as a hardware change. */
  setFirmwareVersion(version: string): void {
    checkOption('firmwareVersion', version);
    this.#changeHardware(() => {
      this.#parts.settings.firmwareVersion = version;
    });
  }

  /** How later answers are framed: with a length, chunked, or chunked and gzip-compressed. */
  setAnswerEncoding(encoding: AnswerEncoding): void {
    checkOption('answerEncoding', encoding);
    this.#parts.settings.answerEncoding = encoding;
  }

  setErrorFormat(format: ErrorFormat): void {
    checkOption('errorFormat', format);
    this.#parts.settings.errorFormat = format;
  }

  /** Requests a minute per client, and the status past it: 429 or 409 "Too many requests". */
  setRateLimit(perMinute: number, status?: 429 | 409): void {
    checkOption('rateLimitPerMinute', perMinute);
    checkOption('rateLimitStatus', status);
    this.#parts.rateLimiter.perMinute = perMinute;
    this.#parts.rateLimiter.clear();
    if (status !== undefined) this.#parts.settings.rateLimitStatus = status;
  }

  /** What a successful write answers: `{}`, an empty body, or the request echoed. */
  setWriteAnswer(answer: WriteAnswer): void {
    checkOption('writeAnswer', answer);
    this.#parts.settings.writeAnswer = answer;
  }

  /** Replaces the current fault; null clears it. */
  setFault(fault: SimulatorFault | null): void {
    this.#parts.faults.set(fault);
  }

  /** Sets audio fields as the device's own app would (any firmware; `speakerVolume` too). Never announced. */
  setAudio(fields: Record<string, unknown>): void {
    this.#parts.audio.set(fields);
  }

  /** The volume range (0-20 or 0-100) and the step of one volume change; the volume keeps its share. */
  setVolumeScale(scale: VolumeScale): void {
    checkOption('volumeScale', scale);
    this.#parts.audio.setVolumeScale(scale);
  }

  /** The last speaker bar's cable out (true) or back in: hardware and components events. */
  setBarUnplugged(unplugged: boolean): void {
    checkOption('barUnplugged', unplugged);
    this.#parts.hardware.setBarUnplugged(unplugged);
  }

  /** A `ledStateUpdated` event when the light changes. */
  setLed(led: LedName, light: LedLight): void {
    checkOption('leds', { [led]: light });
    this.#parts.hardware.setLed(led, light);
  }

  /** A `usbConnection` event when the status changes, in the form set by `setUsbEventForm`. */
  setUsb(status: ConnectionStatus): void {
    checkOption('usb', status);
    this.#parts.hardware.setUsb(status);
  }

  setUsbEventForm(form: UsbEventForm): void {
    checkOption('usbEventForm', form);
    this.#parts.hardware.setUsbEventForm(form);
  }

  /** A `deviceComponentsConnection` event when the status changes. */
  setComponents(status: ConnectionStatus): void {
    checkOption('components', status);
    this.#parts.hardware.setComponents(status);
  }

  /** Replaces the room profiles (no event); `activeProfileId` or else the first is active. */
  setProfiles(profiles: SimulatorProfile[], activeProfileId?: string): void {
    checkOption('profiles', profiles);
    this.#parts.profiles.set(profiles, activeProfileId);
  }

  /** Switches the active profile as the device's app would: announced as a layout change. */
  activateProfile(profileId: string): void {
    if (!this.#parts.profiles.activate(profileId)) throw new TypeError(`no profile has the id ${profileId}`);
  }

  /** How long the next calibration runs. */
  setCalibrationMs(ms: number): void {
    checkOption('calibrationMs', ms);
    this.#parts.calibration.setRunMs(ms);
  }

  /** Changes what the camera switcher reports; announced when anything changed. */
  setCameraSwitcher(fields: Partial<CameraSwitcherFields>): void {
    this.#parts.switcher.set(fields);
  }

  /** Changes port A's configuration; announced with `{}` (or no body, see `setBodylessEvents`). */
  setNetwork(fields: Partial<NetworkFields>): void {
    this.#parts.network.set(fields);
  }

  /** Change events sent with an empty data line instead of their body. */
  setBodylessEvents(names: string[]): void {
    checkOption('bodylessEvents', names);
    this.#parts.settings.bodylessEvents = new Set(names);
  }

  /** Fields added to every zone of the layout (not of the zones endpoint); null for none. */
  setLayoutZoneExtras(extras: Record<string, unknown> | null): void {
    if (extras !== null) checkOption('layoutZoneExtras', extras);
    this.#parts.room.zoneExtras = extras === null ? null : { ...extras };
  }

  resetRecords(): void {
    this.#parts.log.reset();
  }

  getState(): SimulatorState {
    return describeState(this.#parts, this.url, this.fingerprint256);
  }

  /** Closes the server and every open socket, and drops answers still waiting on a latency fault. */
  close(): Promise<void> {
    return this.#server.close();
  }

  #changeHardware(change: () => void): void {
    const before = JSON.stringify(this.#parts.hardware.hardware(null));
    change();
    if (JSON.stringify(this.#parts.hardware.hardware(null)) !== before)
      this.#parts.hardware.announceHardware();
  }
}

export function startSimulator(options?: SimulatorOptions): Promise<DeviceSimulator> {
  return DeviceSimulator.start(options);
}
