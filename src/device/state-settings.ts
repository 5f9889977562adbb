/** How often the device state reads what: the config node's audio interval and the fixed rhythms. */
import { DeviceError } from '../errors';

/** Audio settings are never announced, so they are polled: every 2 s unless the config node says otherwise. */
export const DEFAULT_AUDIO_INTERVAL_SECONDS = 2;
/** The reference driver's bound; a longer wait would leave the mute state stale for minutes. */
export const MAX_AUDIO_INTERVAL_SECONDS = 60;
/** Everything is read again this often, in case the change stream missed something without dropping. */
export const RESYNC_INTERVAL_MS = 60_000;
/**
 * The least time from the end of one read of a resource to the start of the next: a device that floods
 * the change stream with body-less events costs a read a second, not one per event (as the zones).
 */
export const READ_GAP_MS = 1000;

export interface DeviceStateOptions {
  /** Between two reads of the audio settings; 0 reads them only at start (and the runner after each write). */
  audioIntervalSeconds?: number | undefined;
  /** Between two full resyncs: once a minute unless a test shortens it. */
  resyncIntervalMs?: number | undefined;
}

/** The audio interval in ms; throws INVALID_CONFIG for one that is not 0 to 60 seconds. */
export function audioIntervalMs(seconds: number = DEFAULT_AUDIO_INTERVAL_SECONDS): number {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_AUDIO_INTERVAL_SECONDS) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `The audio interval must be 0 to ${MAX_AUDIO_INTERVAL_SECONDS} seconds (0: never polled)`,
    );
  }
  return Math.round(seconds * 1000);
}
