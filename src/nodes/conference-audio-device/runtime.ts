import type { Node, NodeAPI, NodeDef, NodeSettings, NodeStatus } from 'node-red';
import { LOGIN_PACE_DEFAULTS, setLoginPace } from '../../api/login-pacer';
import { deviceSettingsFromProperties } from '../../api/settings';
import { MAX_TIMER_MS } from '../../api/settings-rules';
import { STREAM_DEFAULTS } from '../../api/streams';
import type { ConnectionState } from '../../api/types';
import type { CertificateTrust } from '../../device/certificate-trust';
import { CHANGE_STREAM_IDLE_FACTOR, DeviceConnection } from '../../device/connection';
import { choosePinStorage, MemoryPinStorage } from '../../device/pin-storage';
import { DEFAULT_RESYNC_SECONDS, resyncIntervalMs } from '../../device/state-settings';
import { DeviceError, isDeviceError } from '../../errors';
import { registerAdminEndpoints, type StoredDeviceAddress } from '../glue/admin';
import { runtimeCatalogue } from '../glue/catalogue';
import type { DeviceConfigNode, DeviceUser } from '../glue/device';
import { errorLocaliser, toNodeError } from '../glue/errors';
import { streamStatus } from '../lib/stream-status-view';
import {
  connectedWithVendorHint,
  connectionStatus,
  faultStatus,
  invalidConfigStatus,
  type StatusView,
  statusMessage,
} from '../plain/status';
import { readAudioInterval, TYPE } from './definition';

/** What this node reads from settings.js. */
interface DeviceSettings {
  /** Seconds without a byte after which a live stream counts as dead and is opened again. */
  conferenceAudioDeviceStreamIdleTimeout: number;
  /** Logins that may start in any one second, across every device of this Node-RED. */
  conferenceAudioDeviceLoginsPerSecond: number;
  /** Seconds between two full reads of each device's state, the net under its change stream. */
  conferenceAudioDeviceStateResync: number;
}

/** The device sends metrics every 5 s on the data stream; an independent driver waits 30 s as well. */
const STREAM_IDLE_TIMEOUT_SECONDS = STREAM_DEFAULTS.idleTimeoutMs / 1000;

interface DeviceConfigDef extends NodeDef {
  host?: string;
  port?: number | string;
  account?: string;
  clientId?: string;
  vendor?: string;
  tls?: string;
  fingerprint?: string;
  ca?: string;
  timeout?: number | string;
  audioInterval?: number | string;
}

interface DeviceCredentials {
  password?: string;
}

interface ConfigNode extends Node<DeviceCredentials>, DeviceConfigNode {
  deviceAddress?: StoredDeviceAddress;
  /** For the editor's device dialog: which certificate is trusted, and whether the device shows another. */
  certificateTrust?: () => CertificateTrust;
}

/**
 * The `conference-audio-device` config node: Node-RED glue around one DeviceConnection (src/device). It
 * registers the nodes that use the device, shows the connection's state on each of them (mqtt-broker's
 * pattern), logs what the user must know, and closes the connection on redeploy.
 */
export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  // In the runtime's language: a Status node or a dashboard reads this text (src/nodes/plain/status.ts).
  const statusOf = (view: StatusView): NodeStatus => statusMessage(t, view);
  const settingsOf = () => RED.settings as unknown as Record<string, unknown>;

  // Once per start of Node-RED: the logins of all its devices take turns at this pace (judged there).
  try {
    setLoginPace({ perSecond: settingsOf().conferenceAudioDeviceLoginsPerSecond as number | undefined });
  } catch (error) {
    const message = isDeviceError(error) ? error.message : String(error);
    RED.log.warn(t('errors.loginPace', { message, pace: LOGIN_PACE_DEFAULTS.perSecond }));
    setLoginPace();
  }

  // Pins when Node-RED has no user directory: kept across redeploys, for the life of the process.
  const memoryPins = new MemoryPinStorage();

  // Once per start as well: every device of this Node-RED resyncs its state at this interval.
  let stateResyncMs: number;
  try {
    stateResyncMs = resyncIntervalMs(settingsOf().conferenceAudioDeviceStateResync ?? undefined);
  } catch (error) {
    const message = isDeviceError(error) ? error.message : String(error);
    RED.log.warn(t('errors.stateResync', { message, seconds: DEFAULT_RESYNC_SECONDS }));
    stateResyncMs = resyncIntervalMs();
  }

  function streamIdleTimeoutMs(): number {
    const configured = settingsOf().conferenceAudioDeviceStreamIdleTimeout;
    const seconds =
      typeof configured === 'number' && Number.isFinite(configured) && configured > 0
        ? configured
        : STREAM_IDLE_TIMEOUT_SECONDS;
    // The change stream waits CHANGE_STREAM_IDLE_FACTOR times this long: both stay within what timers honour.
    return Math.min(Math.round(seconds * 1000), Math.floor(MAX_TIMER_MS / CHANGE_STREAM_IDLE_FACTOR));
  }

  function DeviceConfigNode(this: ConfigNode, def: DeviceConfigDef) {
    RED.nodes.createNode(this, def);
    const users = new Map<string, DeviceUser>();
    let state: ConnectionState | 'invalid' = 'idle';
    let status: NodeStatus = statusOf(connectionStatus('idle'));
    let connection: DeviceConnection | undefined;
    let unusable: DeviceError | undefined;

    try {
      const settings = deviceSettingsFromProperties(def);
      const audioInterval = readAudioInterval(def.audioInterval);
      if (!audioInterval.ok) throw new DeviceError('INVALID_CONFIG', audioInterval.reason);
      this.deviceAddress = { host: settings.host, port: settings.port };
      connection = new DeviceConnection({
        owner: this.id,
        settings,
        password: this.credentials?.password ?? '',
        pins: choosePinStorage({ userDir: settingsOf().userDir, memory: memoryPins }),
        streamIdleTimeoutMs: streamIdleTimeoutMs(),
        audioIntervalSeconds: audioInterval.value,
        stateResyncIntervalMs: stateResyncMs,
      });
    } catch (error) {
      unusable = isDeviceError(error)
        ? error
        : new DeviceError('INVALID_CONFIG', 'The device settings could not be read');
      state = 'invalid';
      status = statusOf(invalidConfigStatus());
      this.error(t('errors.invalidConfig', { message: unusable.message }));
    }

    const storeProblem = connection?.pinStoreProblem;
    if (storeProblem !== undefined) {
      if (connection?.certificateTrust.source === 'configured') {
        this.warn(t('errors.pinStoreConfigured', { problem: storeProblem }));
      } else {
        // Every node of the device shows it from the start, not only once one of them has tried.
        state = 'unreachable';
        status = statusOf(faultStatus('TLS'));
        this.error(t('errors.pinStoreUnreadable', { problem: storeProblem }));
      }
    }

    const show = (user: DeviceUser) => {
      if (user.onDeviceStatus) user.onDeviceStatus(status, state);
      else user.status(status);
    };
    const showAll = () => {
      for (const user of users.values()) show(user);
    };

    if (connection) {
      const known = connection;
      /** "connected", with the device's own vendor word when it differs (shown until redeployed). */
      const viewOf = (next: ConnectionState, code?: string) =>
        next === 'connected' && known.learnedVendor !== undefined
          ? connectedWithVendorHint(known.learnedVendor)
          : connectionStatus(next, code);
      known.on('state', (next, error) => {
        state = next;
        status = statusOf(viewOf(next, error?.code));
        if (next === 'auth_failed' && error) this.warn(t('errors.authFailed', { message: error.message }));
        showAll();
      });
      known.on('vendor', (word, configured) => {
        // Once per deploy: the client keeps the device's word, so this happens only on the first request.
        this.warn(t('errors.vendorWord', { word, configured }));
        if (state !== 'invalid') status = statusOf(viewOf(state));
        showAll();
      });
      known.on('pinned', (fingerprint, kept) => {
        // Not a secret: logged so the user can copy it into the config and pin it for good.
        if (kept) this.log(t('log.pinned', { fingerprint }));
        else this.warn(t('errors.pinNotKept', { fingerprint }));
      });
      known.on('pinMismatch', (expected, seen) => {
        this.warn(t('errors.pinMismatch', { expected, seen }));
      });
      // Once per stream connection, here for all its nodes: a flood of oversized events is one line.
      known.on('streamDropped', (warning) => this.warn(toNodeError(warning, errorLocaliser(RED)).message));
    }
    const trusting = connection;
    this.certificateTrust = () =>
      trusting?.certificateTrust ?? { fingerprint: null, source: null, mismatch: null, storeProblem: null };

    Object.defineProperty(this, 'connectionStatus', { get: () => status, enumerable: false });
    // The host as resolved (a ${VAR} in the field names the variable, not the device).
    const host = this.deviceAddress?.host ?? (typeof def.host === 'string' ? def.host.trim() : '');
    const displayName = typeof def.name === 'string' && def.name.trim() !== '' ? def.name.trim() : host;
    Object.defineProperty(this, 'displayName', { value: displayName, enumerable: false });
    this.streamStatus = (condition) => statusOf(streamStatus(condition));
    this.faultStatus = (code) => statusOf(faultStatus(code));
    this.connection = () => {
      if (connection) return connection;
      throw unusable ?? new DeviceError('INVALID_CONFIG', 'The device settings could not be read');
    };
    this.register = (user: DeviceUser) => {
      users.set(user.id, user);
      show(user);
    };
    this.deregister = (user: DeviceUser, done: () => void) => {
      users.delete(user.id);
      user.status({});
      done();
    };

    this.on('close', (_removed: boolean, done: () => void) => {
      const closing = connection;
      connection = undefined;
      unusable = new DeviceError('CLOSED', 'The device config node was closed (redeploy)');
      if (!closing) {
        done();
        return;
      }
      closing.close().then(
        () => done(),
        (error: unknown) => {
          this.warn(t('errors.close', { message: isDeviceError(error) ? error.message : String(error) }));
          done();
        },
      );
    });
  }

  const deviceSettings: NodeSettings<DeviceSettings> = {
    conferenceAudioDeviceStreamIdleTimeout: { value: STREAM_IDLE_TIMEOUT_SECONDS, exportable: false },
    conferenceAudioDeviceLoginsPerSecond: { value: LOGIN_PACE_DEFAULTS.perSecond, exportable: false },
    conferenceAudioDeviceStateResync: { value: DEFAULT_RESYNC_SECONDS, exportable: false },
  };
  RED.nodes.registerType<ConfigNode, DeviceConfigDef, DeviceSettings, DeviceCredentials>(
    'conference-audio-device',
    DeviceConfigNode,
    {
      credentials: { password: { type: 'password' } },
      settings: deviceSettings,
    },
  );
  registerAdminEndpoints(RED);
};
