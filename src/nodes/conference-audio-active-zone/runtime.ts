import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow } from 'node-red';
import { MAX_TIMER_MS } from '../../api/settings-rules';
import {
  type ActiveZoneChange,
  ActiveZoneTracker,
  readSoundLocation,
  summariseLocation,
  withGeometry,
} from '../../zones';
import type { ZoneReadResult, ZoneWithGeometry } from '../../zones/types';
import { type DeviceUser, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import type { StreamCondition } from '../lib/stream-hub';
import { streamErrorReporter } from '../lib/stream-status';
import { statusText } from '../plain/status';
import { subscribeAfterDeploy } from '../plain/subscribe-after-deploy';
import { readHold, readRelease, readZoneType, TYPE } from './definition';

interface ActiveZoneDef extends NodeDef {
  device?: string;
  zoneType?: string;
  hold?: number | string;
  release?: number | string;
  /** `ms`, or absent for a flow saved with `release` in seconds (./definition.ts). */
  releaseUnit?: string;
  topic?: string;
}

/** Zones older than this are read again (through the config node's cache) when the next reading comes. */
const ZONES_REFRESH_MS = 30_000;

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;

export = (RED: NodeAPI) => {
  const t = (key: string, params?: Record<string, string | number>) => RED._(`${TYPE}.${key}`, params);
  const localise = errorLocaliser(RED);

  function ActiveZoneNode(this: DeviceUser, def: ActiveZoneDef) {
    RED.nodes.createNode(this, def);
    const node: DeviceUser = this;
    const zoneType = readZoneType(def.zoneType);
    const hold = readHold(def.hold);
    if (!hold.ok) node.warn(t('errors.hold', { reason: hold.reason }));
    const release = readRelease(def.release, def.releaseUnit);
    if (!release.ok) node.warn(t('errors.release', { reason: release.reason }));
    const tracker = new ActiveZoneTracker<ZoneWithGeometry>({
      zoneType,
      holdMs: hold.ok ? hold.value : hold.fallback,
      releaseMs: release.ok ? release.value : release.fallback,
    });
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    let closed = false;
    let condition: StreamCondition = { state: 'connecting' };
    let zonesLoadedAt: number | undefined;
    let zonesLoading = false;
    let lastZonesError: string | undefined;
    let releaseTimer: NodeJS.Timeout | undefined;

    node.onDeviceStatus = (status, state) => {
      if (state === 'invalid') node.status(status);
    };
    const device = useDevice(RED, node, def.device, statusText(TYPE, 'status.noDevice'));
    const topicBase = configuredTopic !== '' ? configuredTopic : (device?.displayName ?? '');

    function showStatus() {
      if (!device) return;
      if (lastZonesError !== undefined) {
        node.status({
          fill: 'red',
          shape: 'ring',
          text: statusText(TYPE, 'status.zonesError', { code: lastZonesError }),
        });
        return;
      }
      if (condition.state !== 'streaming') {
        node.status(device.streamStatus(condition));
        return;
      }
      const zone = tracker.current.zone;
      node.status(
        zone === null
          ? { fill: 'grey', shape: 'dot', text: statusText(TYPE, 'status.none') }
          : { fill: 'green', shape: 'dot', text: zone.label !== '' ? zone.label : zone.id },
      );
    }

    /** The answer as a message: `base` is an input message (kept) or a fresh one. */
    function messageFor(change: ActiveZoneChange<ZoneWithGeometry>, base: NodeMessage): NodeMessage {
      const msg = base as NodeMessage & Record<string, unknown>;
      // A copy: the tracker keeps the zones, and a flow may edit what it receives.
      msg.payload = RED.util.cloneMessage({ zone: change.zone, previous: change.previous });
      msg.location = change.reading === undefined ? null : summariseLocation(change.reading.location);
      const last = change.zone === null ? 'none' : change.zone.id;
      msg.topic = topicBase === '' ? last : `${topicBase}/${last}`;
      return msg;
    }

    function announce(change: ActiveZoneChange<ZoneWithGeometry> | undefined) {
      if (change === undefined || closed) return;
      node.send(messageFor(change, {}));
      showStatus();
    }

    /** A timer at the release deadline, for when no reading comes (a muted microphone sends none). */
    function scheduleRelease() {
      if (releaseTimer !== undefined || closed) return;
      const deadline = tracker.nextDeadline();
      if (deadline === undefined) return;
      releaseTimer = setTimeout(
        () => {
          releaseTimer = undefined;
          announce(tracker.tick(Date.now()));
          scheduleRelease();
        },
        // Clamped: a clock set forward must not turn the wait into an overflowing timer.
        Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now())),
      );
    }

    function applyZones(read: ZoneReadResult) {
      zonesLoadedAt = Date.now();
      const hadError = lastZonesError !== undefined;
      lastZonesError = undefined;
      announce(tracker.setZones(read.zones.map(withGeometry), Date.now()));
      if (hadError) showStatus();
    }

    function loadZones() {
      if (!device || zonesLoading || closed) return;
      zonesLoading = true;
      device.readZones().then(
        (read) => {
          zonesLoading = false;
          if (!closed) applyZones(read);
        },
        (error: unknown) => {
          zonesLoading = false;
          if (closed) return;
          const code = errorCode(error);
          // A device that keeps failing the same way is reported once, not at every reading.
          // With a message, so that a Catch node sees it.
          if (code !== lastZonesError) node.error(toNodeError(error, localise), { topic: topicBase });
          lastZonesError = code;
          zonesLoadedAt = Date.now();
          showStatus();
        },
      );
    }

    node.on('input', (msg: NodeMessageInFlow, send: SendFn, done: (err?: Error) => void) => {
      try {
        send(messageFor(tracker.current, msg as NodeMessage));
        done();
      } catch (error) {
        done(toNodeError(error, localise));
      }
    });

    if (!device) return;
    const reportStreamError = streamErrorReporter((error) =>
      node.error(toNodeError(error, localise), { topic: topicBase }),
    );
    subscribeAfterDeploy(
      node,
      (keep) => {
        keep(
          device.watchZones((zones) => {
            if (zones) applyZones(zones);
            else loadZones();
          }),
        );
        keep(
          device.subscribeStream('data', {
            onEvent: (event) => {
              if (event.event !== 'soundLocation') return;
              // Until the zones are known a reading cannot be placed; the first read is under way.
              if (zonesLoadedAt === undefined) return;
              if (Date.now() - zonesLoadedAt > ZONES_REFRESH_MS) loadZones();
              const location = readSoundLocation(event.data);
              if (location === undefined) return;
              announce(tracker.observe({ at: event.receivedAt, location }));
              scheduleRelease();
            },
            onCondition: (next) => {
              reportStreamError(next);
              condition = next;
              showStatus();
            },
          }),
        );
        loadZones();
      },
      (error) => node.error(toNodeError(error, localise), { topic: topicBase }),
      () => {
        closed = true;
        if (releaseTimer !== undefined) clearTimeout(releaseTimer);
      },
    );
  }

  RED.nodes.registerType('conference-audio-active-zone', ActiveZoneNode);
};
