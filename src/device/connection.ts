import { EventEmitter } from 'node:events';
import { DeviceClient } from '../api/client';
import { clientSettingsOf, type DeviceSettings } from '../api/settings';
import type { ConnectionState } from '../api/types';
import { type ControlResult, runControlAction } from '../control/runner';
import type { DeviceError } from '../errors';
import { type CertificateTrust, CertificateTrustStore, type PinStorage } from './certificate-trust';
import { DeviceState } from './state';
import { STREAM_PATHS, StreamHub, type StreamKind, type StreamSubscriber } from './stream-hub';
import { DeviceZones } from './zones';

/**
 * The change stream is silent until something changes, so silence there says little: it counts as dead only
 * after this many times the data stream's idle timeout, 9 minutes at the defaults, so that in a quiet room
 * the read at its reopen comes just before the state's stretched resync (10 minutes) and stands for it. A
 * connection lost meanwhile is found by TCP: undici probes every idle socket after a minute (docs/device-api.md).
 */
export const CHANGE_STREAM_IDLE_FACTOR = 18;

export interface DeviceConnectionOptions {
  /** Whose connection this is (a config node's id): the key of its first-use pin. */
  owner: string;
  settings: DeviceSettings;
  password: string;
  /** Where a certificate trusted on first use is kept, so that a redeploy or a restart still knows it. */
  pins: PinStorage;
  /** Silence after which the data stream counts as dead; the change stream waits 18 times as long. */
  streamIdleTimeoutMs: number;
  /** Between two full reads of the device state: once a minute unless settings.js (or a test) says otherwise. */
  stateResyncIntervalMs?: number;
  /** The same while the change stream streams without a break: 10 minutes unless a test says otherwise. */
  stateSteadyResyncIntervalMs?: number;
}

export interface DeviceConnectionEvents {
  /** The connection state changed; the error that caused it, when one did. */
  state: [state: ConnectionState, error?: DeviceError];
  /** The device uses another vendor word than the configured one; the connection uses the device's now. */
  vendor: [word: string, configured: string];
  /** Trust on first use pinned this certificate; `kept` is false when the pin storage could not keep it. */
  pinned: [fingerprint: string, kept: boolean];
  /** The device shows another certificate than the pinned one (once per certificate seen). */
  pinMismatch: [expected: string, seen: string];
  /**
   * A live stream dropped an event too large to pass (on the change stream, the state and zones it may
   * have changed are read again). Told for the first such event of each stream connection, not for every
   * one of a flood.
   */
  streamDropped: [warning: DeviceError, kind: StreamKind];
}

/**
 * The connection to one device, without Node-RED: the client, the certificate it trusts, the live streams
 * shared by every user, and the per-device caches: the zones and the device state.
 * A `conference-audio-device` config node holds one per deploy. Throws INVALID_CONFIG for unusable settings.
 */
export class DeviceConnection extends EventEmitter<DeviceConnectionEvents> {
  readonly client: DeviceClient;
  /** The room's zones: their one owner for every node of this device (read, followed, kept fresh). */
  readonly zones: DeviceZones;
  /** The device's state: one cache for every state, control and zone node of this device. */
  readonly state: DeviceState;
  readonly #streams: StreamHub;
  /** The control actions in flight, one after the other (see `control`). */
  #controls: Promise<void> = Promise.resolve();
  readonly #trustStore: CertificateTrustStore;
  #trustSource: CertificateTrust['source'];
  #pinMismatch: CertificateTrust['mismatch'] = null;
  #learnedVendor: string | undefined;

  constructor(options: DeviceConnectionOptions) {
    super();
    const { settings } = options;
    this.#trustStore = new CertificateTrustStore(
      options.pins,
      options.owner,
      `${settings.host}:${settings.port}`,
    );
    const trusted = this.#trustStore.tlsFor(settings.tls);
    this.#trustSource = trusted.source;
    this.client = new DeviceClient(
      clientSettingsOf(settings, {
        tls: trusted.tls,
        password: options.password,
        // Kept before the first request on the connection: a restart must still refuse another certificate.
        trustFirstUse: (seen) => {
          const decided = this.#trustStore.firstUse(seen);
          this.#trustSource = 'first use';
          if (decided.fingerprint === seen) this.emit('pinned', seen, decided.kept);
          return decided.fingerprint;
        },
      }),
    );
    this.client.on('state', (state, error) => this.emit('state', state, error));
    this.client.on('vendor', (word, configured) => {
      this.#learnedVendor = word;
      this.emit('vendor', word, configured);
    });
    this.client.on('pinMismatch', (expected, seen) => {
      const known = this.#pinMismatch?.seen === seen;
      this.#pinMismatch = { expected, seen };
      if (!known) this.emit('pinMismatch', expected, seen);
    });
    const idleTimeoutMs = options.streamIdleTimeoutMs;
    this.#streams = new StreamHub((path, onEvent) =>
      this.client.eventStream(path, {
        onEvent,
        // The data stream carries metrics every 5 s; the change stream is silent until something changes,
        // so silence there says little: it is reopened (and the zones read again) only after 18 times as long.
        idleTimeoutMs:
          path === STREAM_PATHS.changes ? idleTimeoutMs * CHANGE_STREAM_IDLE_FACTOR : idleTimeoutMs,
      }),
    );
    this.#streams.watchFirstWarnings((warning, kind) => this.emit('streamDropped', warning, kind));
    this.zones = new DeviceZones(this.client, {
      followChanges: (subscriber) => this.subscribeStream('changes', subscriber),
      // A minute past the change stream's reopen (which reads the zones again): in a quiet room that read
      // is the net's read too.
      refreshMs: idleTimeoutMs * CHANGE_STREAM_IDLE_FACTOR + 60_000,
    });
    this.state = new DeviceState(
      this.client,
      {
        followChanges: (subscriber) => this.subscribeStream('changes', subscriber),
        watchMute: (watcher) => this.#streams.watchMute(watcher),
      },
      {
        audioIntervalMs: settings.audioIntervalMs,
        resyncIntervalMs: options.stateResyncIntervalMs,
        steadyResyncIntervalMs: options.stateSteadyResyncIntervalMs,
      },
    );
  }

  /** Which certificate is trusted, and whether the device shows another (never a secret). */
  get certificateTrust(): CertificateTrust {
    return {
      fingerprint: this.client.pinnedFingerprint ?? null,
      source: this.#trustSource,
      mismatch: this.#pinMismatch,
      storeProblem: this.pinStoreProblem ?? null,
    };
  }

  /**
   * What is wrong with the pin storage, naming it, when it exists but could not be read when last asked:
   * it is left as it is, and with no fingerprint configured no certificate is trusted.
   */
  get pinStoreProblem(): string | undefined {
    return this.#trustStore.storeProblem;
  }

  /** The device's own vendor word, when it named one other than the configured one. */
  get learnedVendor(): string | undefined {
    return this.#learnedVendor;
  }

  /**
   * Joins the shared live stream of `kind`, opening it for the first subscriber; returns the function that
   * leaves it (the last one out closes it).
   */
  subscribeStream(kind: StreamKind, subscriber: StreamSubscriber): () => void {
    return this.#streams.subscribe(kind, subscriber);
  }

  /**
   * Runs a control action (src/control) on this device after the ones before it have ended: a toggle must
   * see the write and read-back of the action before it, or it would act on a value that is about to change.
   */
  control(action: unknown, value: unknown): Promise<ControlResult> {
    const run = this.#controls.then(() =>
      runControlAction(this.client, action, value, this.state, { toggleFreshMs: this.state.audioIntervalMs }),
    );
    this.#controls = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Closes the streams, then the client. Resolves when every socket and timer is free. */
  async close(): Promise<void> {
    this.removeAllListeners();
    this.zones.close();
    this.state.close();
    this.client.removeAllListeners();
    // Together: a stream that waits for its login's turn ends only when the client's close takes the
    // turn out of the process's queue. One after the other, a redeploy of many devices waited for the
    // old ones' queued logins to happen (bench/README.md, many-rooms).
    await Promise.all([this.#streams.close(), this.client.close()]);
  }
}
