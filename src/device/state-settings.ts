/** How often the device state reads what: the config node's audio interval and the fixed rhythms. */
import { DEVICE_DEFAULTS, MAX_TIMER_SECONDS } from '../api/settings-rules';
import { DeviceError } from '../errors';

/** Audio settings are never announced, so they are polled (the config node's audio interval). */
export const DEFAULT_AUDIO_INTERVAL_MS = DEVICE_DEFAULTS.audioIntervalSeconds * 1000;
/** Everything is read again this often, in case the change stream missed something without dropping. */
export const RESYNC_INTERVAL_MS = 60_000;
/**
 * The resync while the change stream has streamed for a whole interval without a break: what it would
 * read, the stream already said. At 1,000 rooms the minute's resync is most of the package's cost over a
 * bare stream reader (a new TLS connection per read).
 */
export const STEADY_RESYNC_INTERVAL_MS = 600_000;
/**
 * How long a timed resync that falls due just after the change stream stopped waits for its return, which
 * reads everything anyway (the first reconnect comes within a second); after that it reads by itself.
 */
export const RETURN_WAIT_MS = 10_000;
/** The default of `conferenceAudioDeviceStateResync` in settings.js: the resync above, in seconds. */
export const DEFAULT_RESYNC_SECONDS = RESYNC_INTERVAL_MS / 1000;
/**
 * The least time from the end of one read of a resource to the start of the next: a device that floods
 * the change stream with body-less events costs a read a second, not one per event (as the zones).
 */
export const READ_GAP_MS = 1000;

export interface DeviceStateOptions {
  /**
   * Between two reads of the audio settings, as the device settings checked it (src/api/settings.ts); 0
   * reads them only at start (and the runner after each write).
   */
  audioIntervalMs?: number | undefined;
  /** Between two full resyncs: once a minute unless settings.js (or a test) says otherwise. */
  resyncIntervalMs?: number | undefined;
  /** Between two full resyncs while the change stream streams without a break: 10 minutes unless a test says otherwise. */
  steadyResyncIntervalMs?: number | undefined;
}

/**
 * The resync interval in ms from settings.js (`conferenceAudioDeviceStateResync`, seconds; the default when
 * not set). A site with many rooms may read less often: each resync is a new TLS connection to the device
 * (bench/README.md, many-rooms). Throws INVALID_CONFIG for anything but a number of seconds from 1 to what
 * a timer can wait.
 */
export function resyncIntervalMs(seconds: unknown = DEFAULT_RESYNC_SECONDS): number {
  if (
    typeof seconds !== 'number' ||
    !Number.isFinite(seconds) ||
    seconds < 1 ||
    seconds > MAX_TIMER_SECONDS
  ) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `The state resync must be a number of seconds from 1 to ${MAX_TIMER_SECONDS}; it is ${typeof seconds === 'number' ? seconds : `a ${typeof seconds}`}`,
    );
  }
  return Math.round(seconds * 1000);
}
