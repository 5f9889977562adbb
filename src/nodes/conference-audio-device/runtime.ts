import type { Node, NodeAPI, NodeDef, NodeStatus } from 'node-red';
import { type DeviceSettingsInput, deviceSettingsFromProperties } from '../../api/settings';
import type { ConnectionState } from '../../api/types';
import type { CertificateTrust } from '../../device/certificate-trust';
import { DeviceConnection } from '../../device/connection';
import { choosePinStorage, MemoryPinStorage } from '../../device/pin-storage';
import { DeviceError, isDeviceError } from '../../errors';
import { runtimeCatalogue } from '../glue/catalogue';
import type { DeviceConfigNode, DeviceUser } from '../glue/device';
import { errorLocaliser, toNodeError } from '../glue/errors';
import {
  connectedWithVendorHint,
  connectionStatus,
  faultStatus,
  invalidConfigStatus,
  type StatusView,
  statusMessage,
} from '../status/status';
import { registerAdminEndpoints, type StoredDeviceAddress } from './admin';
import { TYPE } from './definition';
import { type DeviceSiteSettings, readSiteSettings, SITE_SETTINGS } from './site-settings';
import { streamStatus } from './stream-status-view';

type DeviceConfigDef = NodeDef & DeviceSettingsInput;

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
  // In the runtime's language: a Status node or a dashboard reads this text (src/nodes/status/status.ts).
  const statusOf = (view: StatusView): NodeStatus => statusMessage(t, view);
  const settingsOf = () => RED.settings as unknown as Record<string, unknown>;

  const site = readSiteSettings(RED, t);

  // Pins when Node-RED has no user directory: kept across redeploys, for the life of the process.
  const memoryPins = new MemoryPinStorage();

  function DeviceConfigNode(this: ConfigNode, def: DeviceConfigDef) {
    RED.nodes.createNode(this, def);
    const users = new Map<string, DeviceUser>();
    let state: ConnectionState | 'invalid' = 'idle';
    let status: NodeStatus = statusOf(connectionStatus('idle'));
    let connection: DeviceConnection | undefined;
    let unusable: DeviceError | undefined;

    try {
      const settings = deviceSettingsFromProperties(def);
      this.deviceAddress = { host: settings.host, port: settings.port };
      connection = new DeviceConnection({
        owner: this.id,
        settings,
        password: this.credentials?.password ?? '',
        pins: choosePinStorage({ userDir: settingsOf().userDir, memory: memoryPins }),
        streamIdleTimeoutMs: site.streamIdleTimeoutMs,
        stateResyncIntervalMs: site.stateResyncMs,
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

  RED.nodes.registerType<ConfigNode, DeviceConfigDef, DeviceSiteSettings, DeviceCredentials>(
    'conference-audio-device',
    DeviceConfigNode,
    {
      credentials: { password: { type: 'password' } },
      settings: SITE_SETTINGS,
    },
  );
  registerAdminEndpoints(RED);
};
