import { Accounts } from './accounts';
import { FaultSwitch } from './faults';
import { SlidingWindowRateLimiter } from './rate-limiter';
import { RequestLog } from './request-log';
import { AudioResource } from './resources/audio';
import { Calibration } from './resources/calibration';
import { CameraSwitcher } from './resources/camera-switcher';
import { HardwareStatus } from './resources/hardware-status';
import { Network } from './resources/network';
import { RoomProfiles } from './resources/profiles';
import { RoomLayout } from './resources/room';
import { DeviceSettings } from './settings';
import { DEFAULT_STREAM_TIMINGS, EventStreams } from './streams';
import { Talker } from './talker';
import type { SimulatorOptions } from './types';

/** Every part of one simulated device; the server routes requests to them and the controls change them. */
export interface DeviceParts {
  readonly settings: DeviceSettings;
  readonly accounts: Accounts;
  readonly log: RequestLog;
  readonly faults: FaultSwitch;
  readonly rateLimiter: SlidingWindowRateLimiter;
  readonly streamLimiter: SlidingWindowRateLimiter;
  readonly talker: Talker;
  readonly streams: EventStreams;
  readonly audio: AudioResource;
  readonly hardware: HardwareStatus;
  readonly calibration: Calibration;
  readonly room: RoomLayout;
  readonly profiles: RoomProfiles;
  readonly switcher: CameraSwitcher;
  readonly network: Network;
}

/** Builds a device from checked options and its zones. */
export function buildParts(options: SimulatorOptions, zones: unknown[], host: string): DeviceParts {
  let streams: EventStreams | undefined;
  const settings = new DeviceSettings(options, host, (event, data) => streams?.emitChange(event, data));
  const device = settings.context;
  const factoryDefault = options.factoryReset === true ? settings.enrollmentCode : '';
  const talker = new Talker(options.talker ?? 'walk');
  const room = new RoomLayout(device, {
    zones,
    spelling: options.layoutSpelling ?? 'spec',
    zoneExtras: options.layoutZoneExtras,
  });
  streams = new EventStreams(
    {
      soundLocationIntervalMs:
        options.soundLocationIntervalMs ?? DEFAULT_STREAM_TIMINGS.soundLocationIntervalMs,
      metricsIntervalMs: options.metricsIntervalMs ?? DEFAULT_STREAM_TIMINGS.metricsIntervalMs,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_STREAM_TIMINGS.heartbeatIntervalMs,
    },
    talker,
    () => room.zones,
  );
  if (options.talkerAt !== undefined) talker.place(options.talkerAt);
  // The microphone's mute is an audio setting; the streams follow it (soundLocation stops while muted).
  const audio = new AudioResource(device, options.volumeScale, (muted) => streams?.setMuted(muted));
  if (options.muted === true) audio.set({ microphoneMute: true });
  if (options.stallStreams === true) streams.setStalled(true);
  const hardware = new HardwareStatus(device, {
    enrollmentCode: settings.enrollmentCode,
    ...options,
  });
  return {
    settings,
    accounts: new Accounts({
      general: options.passwords?.general ?? factoryDefault,
      admin: options.passwords?.admin ?? settings.enrollmentCode,
    }),
    log: new RequestLog(),
    faults: new FaultSwitch(),
    rateLimiter: new SlidingWindowRateLimiter(options.rateLimitPerMinute ?? 600),
    streamLimiter: new SlidingWindowRateLimiter(options.streamConnectionsPerMinute ?? 60),
    talker,
    streams,
    audio,
    hardware,
    calibration: new Calibration(device, () => hardware.barUnplugged, options.calibrationMs),
    room,
    profiles: new RoomProfiles(device, room, options.profiles, options.activeProfile),
    switcher: new CameraSwitcher(device),
    network: new Network(device),
  };
}
