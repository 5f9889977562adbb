import type { Node, NodeAPI, NodeDef, NodeSettings, NodeStatus } from 'node-red';
import { DeviceClient } from '../../api';
import { deviceSettingsFromProperties } from '../../api/settings';
import { MAX_TIMER_MS } from '../../api/settings-rules';
import type { ConnectionState } from '../../api/types';
import { DeviceError, isDeviceError } from '../../errors';
import { isZonesChange, zonesFromChange } from '../../zones';
import type { ZoneReadResult } from '../../zones/types';
import { registerAdminEndpoints, type StoredDeviceAddress } from '../glue/admin';
import type { DeviceConnection, DeviceUser } from '../glue/device';
import { type CertificateTrust, CertificateTrustStore, persistentStoreName } from '../lib/certificate-trust';
import { STREAM_PATHS, StreamHub, type StreamSubscriber } from '../lib/stream-hub';
import { streamStatus } from '../lib/stream-status';
import { TtlCache } from '../lib/ttl-cache';
import {
  connectedWithVendorHint,
  connectionStatus,
  invalidConfigStatus,
  type StatusView,
  statusMessage,
} from '../plain/status';

/**
 * How long the shared zones stay fresh for the active zone nodes. The change stream refreshes them at
 * once when the device announces new zones; this bounds how stale they get when it cannot.
 */
const ZONES_MAX_AGE_MS = 30_000;

/** What this node reads from settings.js. */
interface DeviceSettings {
  /** Seconds without a byte after which a live stream counts as dead and is opened again. */
  conferenceAudioDeviceStreamIdleTimeout: number;
}

/** The device sends metrics every 5 s on the data stream; an independent driver waits 30 s as well. */
const STREAM_IDLE_TIMEOUT_SECONDS = 30;

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
}

interface DeviceCredentials {
  password?: string;
}

interface DeviceConfigNode extends Node<DeviceCredentials>, DeviceConnection {
  deviceAddress?: StoredDeviceAddress;
  /** For the editor's device dialog: which certificate is trusted, and whether the device shows another. */
  certificateTrust?: () => CertificateTrust;
}

export = (RED: NodeAPI) => {
  const t = (key: string, params?: Record<string, string | number>) =>
    RED._(`conference-audio-device.${key}`, params);
  // A catalogue key, which the editor translates into its own language (plain/status.ts).
  const statusOf = (view: StatusView): NodeStatus => statusMessage('conference-audio-device', view);

  function streamIdleTimeoutMs(): number {
    const configured: unknown = (RED.settings as unknown as Record<string, unknown>)
      .conferenceAudioDeviceStreamIdleTimeout;
    const seconds =
      typeof configured === 'number' && Number.isFinite(configured) && configured > 0
        ? configured
        : STREAM_IDLE_TIMEOUT_SECONDS;
    // The change stream waits ten times this long: both stay within what timers honour.
    return Math.min(Math.round(seconds * 1000), Math.floor(MAX_TIMER_MS / 10));
  }

  function DeviceConfigNode(this: DeviceConfigNode, def: DeviceConfigDef) {
    RED.nodes.createNode(this, def);
    const users = new Map<string, DeviceUser>();
    let state: ConnectionState | 'invalid' = 'idle';
    let status: NodeStatus = statusOf(connectionStatus('idle'));
    let client: DeviceClient | undefined;
    let configError: DeviceError | undefined;

    let trustSource: CertificateTrust['source'] = null;
    let pinMismatch: CertificateTrust['mismatch'] = null;
    let trustStore: CertificateTrustStore | undefined;

    try {
      const settings = deviceSettingsFromProperties(def);
      this.deviceAddress = { host: settings.host, port: settings.port };
      trustStore = new CertificateTrustStore(
        this.context().global,
        persistentStoreName((RED.settings as unknown as Record<string, unknown>).contextStorage),
        this.id,
        `${settings.host}:${settings.port}`,
      );
      const trusted = trustStore.tlsFor(settings.tls);
      trustSource = trusted.source;
      client = new DeviceClient({
        ...settings,
        tls: trusted.tls,
        password: this.credentials?.password ?? '',
      });
    } catch (error) {
      configError = isDeviceError(error)
        ? error
        : new DeviceError('INVALID_CONFIG', 'The device settings could not be read');
      state = 'invalid';
      status = statusOf(invalidConfigStatus());
      this.error(t('errors.invalidConfig', { message: configError.message }));
    }

    const show = (user: DeviceUser) => {
      if (user.onDeviceStatus) user.onDeviceStatus(status, state);
      else user.status(status);
    };

    if (client) {
      /** The device's own vendor word, when it differs from the configured one: shown until redeployed. */
      let learnedVendor: string | undefined;
      const viewOf = (next: ConnectionState, code?: string) =>
        next === 'connected' && learnedVendor !== undefined
          ? connectedWithVendorHint(learnedVendor)
          : connectionStatus(next, code);
      client.on('state', (next: ConnectionState, error?: DeviceError) => {
        state = next;
        status = statusOf(viewOf(next, error?.code));
        if (next === 'auth_failed' && error) this.warn(t('errors.authFailed', { message: error.message }));
        for (const user of users.values()) show(user);
      });
      client.on('vendor', (word: string, configured: string) => {
        learnedVendor = word;
        // Once per deploy: the client keeps the device's word, so this happens only on the first request.
        this.warn(t('errors.vendorWord', { word, configured }));
        if (state !== 'invalid') status = statusOf(viewOf(state));
        for (const user of users.values()) show(user);
      });
      client.on('pinned', (fingerprint: string) => {
        // Not a secret: logged so the user can copy it into the config and pin it for good.
        trustStore?.remember(fingerprint);
        trustSource = 'first use';
        this.log(t('log.pinned', { fingerprint }));
      });
      client.on('pinMismatch', (expected: string, seen: string) => {
        const known = pinMismatch?.seen === seen;
        pinMismatch = { expected, seen };
        if (!known) this.warn(t('errors.pinMismatch', { expected, seen }));
      });
    }

    // One data stream and one change stream for every node of this device (mqtt-broker's pattern).
    const idleTimeoutMs = streamIdleTimeoutMs();
    const streams = new StreamHub((path) =>
      this.getClient().eventStream(path, {
        // The data stream carries metrics every 5 s; the change stream is silent until something changes,
        // so silence there says little: it is reopened (and the zones read again) only after ten times as long.
        idleTimeoutMs: path === STREAM_PATHS.changes ? idleTimeoutMs * 10 : idleTimeoutMs,
      }),
    );
    const zonesCache = new TtlCache<ZoneReadResult>(() => this.getClient().readRoomZones(), ZONES_MAX_AGE_MS);
    const zoneWatchers = new Set<(zones: ZoneReadResult | undefined) => void>();
    let stopWatchingZones: (() => void) | undefined;

    Object.defineProperty(this, 'connectionStatus', { get: () => status, enumerable: false });
    this.certificateTrust = () => ({
      fingerprint: client?.pinnedFingerprint ?? null,
      source: trustSource,
      mismatch: pinMismatch,
    });
    // The host as resolved (a ${VAR} in the field names the variable, not the device).
    const host = this.deviceAddress?.host ?? (typeof def.host === 'string' ? def.host.trim() : '');
    const displayName = typeof def.name === 'string' && def.name.trim() !== '' ? def.name.trim() : host;
    Object.defineProperty(this, 'displayName', { value: displayName, enumerable: false });
    this.subscribeStream = (kind, subscriber) => {
      if (!client)
        throw configError ?? new DeviceError('INVALID_CONFIG', 'The device settings could not be read');
      return streams.subscribe(kind, subscriber);
    };
    this.streamStatus = (condition) => statusOf(streamStatus(condition));
    this.readZones = () => zonesCache.get();
    /** Zones announced by the change stream, to the cache and to every watcher. */
    const announceZones = (zones: ZoneReadResult | undefined) => {
      if (zones) zonesCache.set(zones);
      else zonesCache.invalidate();
      for (const watcher of zoneWatchers) watcher(zones);
    };
    const followZoneChanges = (): StreamSubscriber => {
      let streamed = false;
      let reconnected = false;
      return {
        onEvent: (event) => {
          if (isZonesChange(event.event)) announceZones(zonesFromChange(event.event, event.data));
        },
        onCondition: (condition) => {
          // Changes made while the stream was down were never announced: read the zones once it is back.
          if (condition.state !== 'streaming') {
            reconnected = streamed;
          } else {
            streamed = true;
            if (reconnected) announceZones(undefined);
            reconnected = false;
          }
        },
      };
    };
    this.watchZones = (listener) => {
      stopWatchingZones ??= this.subscribeStream('changes', followZoneChanges());
      zoneWatchers.add(listener);
      return () => {
        if (!zoneWatchers.delete(listener) || zoneWatchers.size > 0) return;
        stopWatchingZones?.();
        stopWatchingZones = undefined;
      };
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
    this.getClient = () => {
      if (client) return client;
      throw configError ?? new DeviceError('INVALID_CONFIG', 'The device settings could not be read');
    };

    this.on('close', (_removed: boolean, done: () => void) => {
      const closing = client;
      client = undefined;
      configError = new DeviceError('CLOSED', 'The device config node was closed (redeploy)');
      zoneWatchers.clear();
      stopWatchingZones = undefined;
      if (!closing) {
        done();
        return;
      }
      closing.removeAllListeners('state');
      closing.removeAllListeners('pinned');
      closing.removeAllListeners('pinMismatch');
      closing.removeAllListeners('vendor');
      // The streams first: they hold sockets of the client's pool.
      streams
        .close()
        .then(() => closing.close())
        .then(
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
  };
  RED.nodes.registerType<DeviceConfigNode, DeviceConfigDef, DeviceSettings, DeviceCredentials>(
    'conference-audio-device',
    DeviceConfigNode,
    {
      credentials: { password: { type: 'password' } },
      settings: deviceSettings,
    },
  );
  registerAdminEndpoints(RED);
};
