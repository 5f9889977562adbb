import { createCertificate } from './certificate';
import { checkOption, validateOptions } from './options';
import { buildParts, type DeviceParts } from './parts';
import { SimulatorServer } from './server';
import { SimulatorBase } from './simulator-base';
import type {
  CameraSwitcherFields,
  ConnectionStatus,
  LayoutSpelling,
  LedLight,
  LedName,
  NetworkFields,
  SimulatorControls,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  SimulatorProfile,
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
export class DeviceSimulator extends SimulatorBase implements SimulatorControls {
  protected readonly server: SimulatorServer;

  private constructor(parts: DeviceParts, tls: { key: string; cert: string }, host: string) {
    super(parts, tls.cert);
    this.server = new SimulatorServer(parts, host, tls, this);
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
    await simulator.server.listen(options.port ?? 0);
    return simulator;
  }

  /** Announced as a layout change on a 410, as a device announces an edit in its management app. */
  setZones(zones: unknown[]): void {
    this.parts.room.zones = zones;
    this.parts.room.announce();
  }

  /** Announced as a hardware change when the model changes. */
  setModel(model: SimulatorModel): void {
    checkOption('model', model);
    this.#changeHardware(() => {
      this.parts.settings.model = model;
    });
  }

  /** Where the zones live (`classic` or `layout`), and how the layout spells them. */
  setFirmware(firmware: SimulatorFirmware, spelling?: LayoutSpelling): void {
    checkOption('firmware', firmware);
    checkOption('layoutSpelling', spelling);
    this.parts.settings.firmware = firmware;
    if (spelling !== undefined) this.parts.room.spelling = spelling;
  }

  /** The version every firmware floor is compared with; announced as a hardware change. */
  setFirmwareVersion(version: string): void {
    checkOption('firmwareVersion', version);
    this.#changeHardware(() => {
      this.parts.settings.firmwareVersion = version;
    });
  }

  /** What a successful write answers: `{}`, an empty body, or the request echoed. */
  setWriteAnswer(answer: WriteAnswer): void {
    checkOption('writeAnswer', answer);
    this.parts.settings.writeAnswer = answer;
  }

  /** Sets audio fields as the device's own app would (any firmware; `speakerVolume` too). Never announced. */
  setAudio(fields: Record<string, unknown>): void {
    this.parts.audio.set(fields);
  }

  /** The volume range (0-20 or 0-100) and the step of one volume change; the volume keeps its share. */
  setVolumeScale(scale: VolumeScale): void {
    this.parts.audio.setVolumeScale(checked('volumeScale', scale));
  }

  /** The last speaker bar's cable out (true) or back in: hardware and components events. */
  setBarUnplugged(unplugged: boolean): void {
    this.parts.hardware.setBarUnplugged(checked('barUnplugged', unplugged));
  }

  /** A `ledStateUpdated` event when the light changes. */
  setLed(led: LedName, light: LedLight): void {
    checkOption('leds', { [led]: light });
    this.parts.hardware.setLed(led, light);
  }

  /** A `usbConnection` event when the status changes, in the form set by `setUsbEventForm`. */
  setUsb(status: ConnectionStatus): void {
    this.parts.hardware.setUsb(checked('usb', status));
  }

  setUsbEventForm(form: UsbEventForm): void {
    this.parts.hardware.setUsbEventForm(checked('usbEventForm', form));
  }

  /** A `deviceComponentsConnection` event when the status changes. */
  setComponents(status: ConnectionStatus): void {
    this.parts.hardware.setComponents(checked('components', status));
  }

  /** Replaces the room profiles (no event); `activeProfileId` or else the first is active. */
  setProfiles(profiles: SimulatorProfile[], activeProfileId?: string): void {
    checkOption('profiles', profiles);
    this.parts.profiles.set(profiles, activeProfileId);
  }

  /** Switches the active profile as the device's app would: announced as a layout change. */
  activateProfile(profileId: string): void {
    if (!this.parts.profiles.activate(profileId)) throw new TypeError(`no profile has the id ${profileId}`);
  }

  /** How long the next calibration runs. */
  setCalibrationMs(ms: number): void {
    this.parts.calibration.setRunMs(checked('calibrationMs', ms));
  }

  /** Changes what the camera switcher reports; announced when anything changed. */
  setCameraSwitcher(fields: Partial<CameraSwitcherFields>): void {
    this.parts.switcher.set(fields);
  }

  /** Changes port A's configuration; announced with `{}` (or no body, see `setBodylessEvents`). */
  setNetwork(fields: Partial<NetworkFields>): void {
    this.parts.network.set(fields);
  }

  /** Change events sent with an empty data line instead of their body. */
  setBodylessEvents(names: string[]): void {
    checkOption('bodylessEvents', names);
    this.parts.settings.bodylessEvents = new Set(names);
  }

  /** Fields added to every zone of the layout (not of the zones endpoint); null for none. */
  setLayoutZoneExtras(extras: Record<string, unknown> | null): void {
    if (extras !== null) checkOption('layoutZoneExtras', extras);
    this.parts.room.zoneExtras = extras === null ? null : { ...extras };
  }

  #changeHardware(change: () => void): void {
    const before = JSON.stringify(this.parts.hardware.hardware(null));
    change();
    if (JSON.stringify(this.parts.hardware.hardware(null)) !== before) this.parts.hardware.announceHardware();
  }
}

/** `value`, once checked as the option `name` is checked (an OptionError when it is not one). */
function checked<K extends keyof SimulatorOptions, V extends SimulatorOptions[K]>(name: K, value: V): V {
  checkOption(name, value);
  return value;
}

export function startSimulator(options?: SimulatorOptions): Promise<DeviceSimulator> {
  return DeviceSimulator.start(options);
}
