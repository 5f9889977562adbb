import type { NodeAPI, NodeSettings } from 'node-red';
import { LOGIN_PACE_DEFAULTS, setLoginPace } from '../../api/login-pacer';
import { MAX_TIMER_MS } from '../../api/settings-rules';
import { STREAM_DEFAULTS } from '../../api/streams';
import { CHANGE_STREAM_IDLE_FACTOR } from '../../device/connection';
import { DEFAULT_RESYNC_SECONDS, resyncIntervalMs } from '../../device/state-settings';
import { isDeviceError } from '../../errors';
import type { Translate } from '../texts/catalogue';

/** What the device config node reads from settings.js. */
export interface DeviceSiteSettings {
  /** Seconds without a byte after which a live stream counts as dead and is opened again. */
  conferenceAudioDeviceStreamIdleTimeout: number;
  /** Logins that may start in any one second, across every device of this Node-RED. */
  conferenceAudioDeviceLoginsPerSecond: number;
  /** Seconds between two full reads of each device's state, the net under its change stream. */
  conferenceAudioDeviceStateResync: number;
}

/** The device sends metrics every 5 s on the data stream; an independent driver waits 30 s as well. */
const STREAM_IDLE_TIMEOUT_SECONDS = STREAM_DEFAULTS.idleTimeoutMs / 1000;

/** The settings.js entries as Node-RED registers them with the type: none is exported to the editor. */
export const SITE_SETTINGS: NodeSettings<DeviceSiteSettings> = {
  conferenceAudioDeviceStreamIdleTimeout: { value: STREAM_IDLE_TIMEOUT_SECONDS, exportable: false },
  conferenceAudioDeviceLoginsPerSecond: { value: LOGIN_PACE_DEFAULTS.perSecond, exportable: false },
  conferenceAudioDeviceStateResync: { value: DEFAULT_RESYNC_SECONDS, exportable: false },
};

/** What every device of this Node-RED runs with, read once per start. */
export interface SiteTiming {
  stateResyncMs: number;
  streamIdleTimeoutMs: number;
}

function messageOf(error: unknown): string {
  return isDeviceError(error) ? error.message : String(error);
}

/**
 * Reads settings.js once per start of Node-RED: sets the login pace all its devices take turns at, and
 * answers the resync and idle timeout. A value it cannot use is logged with the default it keeps.
 */
export function readSiteSettings(RED: NodeAPI, t: Translate): SiteTiming {
  const settings = RED.settings as unknown as Record<string, unknown>;
  try {
    setLoginPace({ perSecond: settings.conferenceAudioDeviceLoginsPerSecond as number | undefined });
  } catch (error) {
    RED.log.warn(t('errors.loginPace', { message: messageOf(error), pace: LOGIN_PACE_DEFAULTS.perSecond }));
    setLoginPace();
  }
  let stateResyncMs: number;
  try {
    stateResyncMs = resyncIntervalMs(settings.conferenceAudioDeviceStateResync ?? undefined);
  } catch (error) {
    RED.log.warn(t('errors.stateResync', { message: messageOf(error), seconds: DEFAULT_RESYNC_SECONDS }));
    stateResyncMs = resyncIntervalMs();
  }
  const configured = settings.conferenceAudioDeviceStreamIdleTimeout;
  const seconds =
    typeof configured === 'number' && Number.isFinite(configured) && configured > 0
      ? configured
      : STREAM_IDLE_TIMEOUT_SECONDS;
  // The change stream waits CHANGE_STREAM_IDLE_FACTOR times this long: both stay within what timers honour.
  const streamIdleTimeoutMs = Math.min(
    Math.round(seconds * 1000),
    Math.floor(MAX_TIMER_MS / CHANGE_STREAM_IDLE_FACTOR),
  );
  return { stateResyncMs, streamIdleTimeoutMs };
}
