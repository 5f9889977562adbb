import type { DeviceParts } from './parts';
import type { SimulatorState } from './types';

/** What `GET /_simulator/state` answers: every setting, never a password, token or the enrollment code. */
export function describeState(parts: DeviceParts, url: string, fingerprint256: string): SimulatorState {
  const { settings, accounts, streams, hardware } = parts;
  return {
    url,
    vendor: settings.vendor,
    model: settings.model,
    firmware: settings.firmware,
    firmwareVersion: settings.firmwareVersion,
    layoutSpelling: parts.room.spelling,
    errorFormat: settings.errorFormat,
    answerEncoding: settings.answerEncoding,
    rateLimitPerMinute: parts.rateLimiter.perMinute,
    rateLimitStatus: settings.rateLimitStatus,
    writeAnswer: settings.writeAnswer,
    fingerprint256,
    accounts: {
      general: accounts.isBlank('general') ? 'blank' : 'set',
      admin: accounts.isBlank('admin') ? 'blank' : 'set',
    },
    zones: parts.room.zones,
    layoutZoneExtras: parts.room.zoneExtras,
    fault: parts.faults.current,
    counters: parts.log.counters,
    talker: parts.talker.mode,
    muted: streams.muted,
    streamsStalled: streams.stalled,
    openStreams: streams.openCount,
    audio: parts.audio.settings,
    volumeScale: parts.audio.volumeScale,
    barUnplugged: hardware.barUnplugged,
    leds: hardware.leds,
    usb: hardware.usb,
    components: hardware.components,
    usbEventForm: hardware.usbEventForm,
    bodylessEvents: [...settings.bodylessEvents],
    profiles: parts.profiles.list(),
    calibrating: parts.calibration.calibrating,
    calibrationMs: parts.calibration.runMs,
    cameraSwitcherEnabled: parts.switcher.enabled,
  };
}
