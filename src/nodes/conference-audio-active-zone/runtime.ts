import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow, NodeStatus } from 'node-red';
import { type Backoff, backoffDelay, withJitter } from '../../api/backoff';
import { copyJson } from '../../api/json-copy';
import { MAX_TIMER_MS } from '../../api/settings-rules';
import type { GroupState } from '../../control';
import { DEFAULT_CHANGE_STREAM_REOPEN_MS } from '../../device/connection';
import type { StreamCondition } from '../../device/stream-hub';
import { streamErrorReporter } from '../../device/stream-status';
import {
  type ActiveZoneChange,
  type ActiveZoneTiming,
  ActiveZoneTracker,
  type CameraInput,
  hasZoneType,
  MIN_RELEASE_MS,
  readSoundLocation,
  summariseLocation,
  withGeometry,
  zoneTypesOf,
} from '../../zones';
import type { ZoneReadResult, ZoneWithGeometry } from '../../zones/types';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import { CoalescedStatus } from '../lib/coalesced-status';
import { joinTopic, nodeTopicNames } from '../lib/topic';
import { settingValue } from '../plain/node-settings';
import { withNote } from '../plain/status';
import { subscribeAfterDeploy } from '../plain/subscribe-after-deploy';
import { readHold, readRelease, readTiming, readZoneType, TYPE } from './definition';
import { readDeviceSwitching, zoneCameraInput } from './device-switching';

interface ActiveZoneDef extends NodeDef {
  device?: string;
  zoneType?: string;
  hold?: number | string;
  release?: number | string;
  /** `node` or `device` (./definition.ts). */
  timing?: string;
  topic?: string;
}

/**
 * Zones older than this are read again (through the config node's cache) when the next reading comes. The
 * change stream announces every change of the layout, and the zones are read again whenever it reopens;
 * this is only the net under that, so it is wide: 1,000 rooms at 30 s were 33 reads a second. It is a minute
 * longer than the silence after which the change stream is reopened (5 minutes at the default): in a quiet
 * room that reopen's read of the zones is the net's read too, not a second one.
 */
const ZONES_REFRESH_MS = DEFAULT_CHANGE_STREAM_REOPEN_MS + 60_000;
/**
 * A failed read is tried again much sooner, after this wait (doubling per failure in a row, with jitter):
 * the node places nothing without its zones, and a read that failed while a deploy of many rooms crowded
 * the devices must not leave a room dark, and its status red, for the refresh time. The retry has a timer
 * of its own: a muted device sends no reading to bring it.
 */
const ZONES_RETRY: Backoff = { initialMs: 2000, maxMs: 60_000 };

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);

  function ActiveZoneNode(this: DeviceUser, def: ActiveZoneDef) {
    RED.nodes.createNode(this, def);
    const node: DeviceUser = this;
    const zoneType = readZoneType(def.zoneType);
    const holdMs = settingValue(readHold(def.hold), (reason) => node.warn(t('errors.hold', { reason })));
    const releaseMs = settingValue(readRelease(def.release), (reason) =>
      node.warn(t('errors.release', { reason })),
    );
    // The tracker raises it; the user is told why the camera waits longer than they set.
    if (releaseMs < MIN_RELEASE_MS)
      node.warn(t('errors.releaseRaised', { release: releaseMs, min: MIN_RELEASE_MS }));
    const nodeTiming: ActiveZoneTiming = { holdMs, releaseMs };
    const followDeviceTiming = readTiming(def.timing) === 'device';
    // With the device's timing, the node's own applies until the device's is read.
    const tracker = new ActiveZoneTracker<ZoneWithGeometry>({ zoneType, ...nodeTiming });
    const status = new CoalescedStatus<NodeStatus>((shown) => node.status(shown));
    node.on('close', () => status.close());
    const safeName = nodeTopicNames((text) => node.warn(text), t);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    let closed = false;
    let condition: StreamCondition = { state: 'connecting' };
    /** When the zones are read again; undefined until the first read has ended. */
    let zonesDueAt: number | undefined;
    let zonesFailures = 0;
    let zonesLoading = false;
    let zonesRetryTimer: NodeJS.Timeout | undefined;
    let lastZonesError: string | undefined;
    let releaseTimer: NodeJS.Timeout | undefined;
    /** The zone types of the device when none of its zones has the chosen one (a typo: "Switchng"). */
    let typesWithoutChosen: string[] | undefined;
    /** The device's camera input for "no zone" (its `defaultCameraInputPort`), null until known. */
    let defaultCameraInput: CameraInput | null = null;
    /** The device's timing last taken, and the last complaint about it, so that each is told once. */
    let deviceTiming: ActiveZoneTiming | undefined;
    let deviceTimingProblem: string | undefined;

    node.onDeviceStatus = (shown, state) => {
      if (state === 'invalid') status.set(shown);
    };
    const device = useDevice(RED, node, def.device, t('status.noDevice'));
    const topicBase = configuredTopic !== '' ? configuredTopic : (device?.displayName ?? '');

    // Looked up once: the status shows it at every change to no zone, and the language never changes.
    const noZoneText = t('status.none');
    /** Data events the stream dropped (over the size cap): logged the first time, counted in the status. */
    let dropped = 0;
    const show = (shown: NodeStatus) =>
      status.set(withNote(shown, dropped === 0 ? undefined : t('status.dropped', { count: dropped })));

    function showStatus() {
      if (!device) return;
      if (lastZonesError !== undefined) {
        show(device.faultStatus(lastZonesError));
        return;
      }
      if (condition.state !== 'streaming') {
        show(device.streamStatus(condition));
        return;
      }
      if (typesWithoutChosen !== undefined) {
        show({ fill: 'yellow', shape: 'ring', text: t('status.noZoneOfType', { type: zoneType }) });
        return;
      }
      const zone = tracker.current.zone;
      show(
        zone === null
          ? { fill: 'grey', shape: 'dot', text: noZoneText }
          : { fill: 'green', shape: 'dot', text: zone.label !== '' ? zone.label : zone.id },
      );
    }

    /** The answer as a message: `base` is an input message (kept) or a fresh one. */
    function messageFor(change: ActiveZoneChange<ZoneWithGeometry>, base: NodeMessage): NodeMessage {
      const msg = base as NodeMessage & Record<string, unknown>;
      // A copy: the tracker keeps the zones, and a flow may edit what it receives. The zones are JSON from
      // the device: copyJson costs a fraction of Node-RED's cloneMessage (lodash), here at every change.
      msg.payload = { zone: copyJson(change.zone), previous: copyJson(change.previous) };
      msg.location = change.reading === undefined ? null : summariseLocation(change.reading.location);
      const last = change.zone === null ? 'none' : safeName(change.zone.id, { oneLevel: true });
      msg.topic = joinTopic(topicBase, last);
      msg.cameraInput = change.zone === null ? defaultCameraInput : zoneCameraInput(change.zone);
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

    /** Restarts the release timer: the deadline moves when the timing does. */
    function rescheduleRelease() {
      if (releaseTimer !== undefined) clearTimeout(releaseTimer);
      releaseTimer = undefined;
      announce(tracker.tick(Date.now()));
      scheduleRelease();
    }

    /** The device's switching group: its default camera input and, when followed, its timing. */
    function applySwitching(switching: GroupState | undefined) {
      if (switching === undefined || closed) return;
      const read = readDeviceSwitching(switching, nodeTiming);
      defaultCameraInput = read.defaultCameraInput;
      if (!followDeviceTiming || read.timing === undefined) return;
      const problem = read.problems.join('; ');
      if (problem !== '' && problem !== deviceTimingProblem)
        node.warn(t('errors.deviceTiming', { reason: problem }));
      deviceTimingProblem = problem;
      const next = read.timing;
      if (next.holdMs === deviceTiming?.holdMs && next.releaseMs === deviceTiming.releaseMs) return;
      if (next.releaseMs < MIN_RELEASE_MS && next.releaseMs !== deviceTiming?.releaseMs)
        node.warn(t('errors.deviceReleaseRaised', { release: next.releaseMs, min: MIN_RELEASE_MS }));
      deviceTiming = next;
      tracker.setTiming(next);
      rescheduleRelease();
    }

    /** Tells once (until a zone of the type appears) that no zone has the chosen type. */
    function checkZoneType(read: ZoneReadResult): boolean {
      const before = typesWithoutChosen;
      typesWithoutChosen = read.zones.some((zone) => hasZoneType(zone, zoneType))
        ? undefined
        : zoneTypesOf(read.zones);
      if (typesWithoutChosen !== undefined && before === undefined) {
        const types = typesWithoutChosen.join(', ');
        node.warn(
          types === ''
            ? t('errors.noZones', { type: zoneType })
            : t('errors.noZoneOfType', { type: zoneType, types }),
        );
      }
      return (before === undefined) !== (typesWithoutChosen === undefined);
    }

    function applyZones(read: ZoneReadResult) {
      // Zones the change stream brought make a pending retry needless.
      clearTimeout(zonesRetryTimer);
      zonesDueAt = Date.now() + ZONES_REFRESH_MS;
      zonesFailures = 0;
      const hadError = lastZonesError !== undefined;
      lastZonesError = undefined;
      const typeNews = checkZoneType(read);
      announce(tracker.setZones(read.zones.map(withGeometry), Date.now()));
      if (hadError || typeNews) showStatus();
    }

    function loadZones() {
      if (!device || zonesLoading || closed) return;
      clearTimeout(zonesRetryTimer);
      zonesLoading = true;
      device
        .connection()
        .zones.cached()
        .then(
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
            zonesFailures++;
            const retryMs = withJitter(backoffDelay(ZONES_RETRY, zonesFailures));
            // Readings that come meanwhile wait for the timer rather than ask at each one.
            zonesDueAt = Date.now() + retryMs;
            zonesRetryTimer = setTimeout(loadZones, retryMs);
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
        const state = device.connection().state;
        keep(
          state.subscribe({
            groups: ['switching'],
            onChange: (group, next) => {
              if (group === 'switching') applySwitching(next);
            },
            // The state may have been read for another node already: no change comes for what it holds.
            onComplete: (groups) => applySwitching(groups.switching),
          }),
        );
        applySwitching(state.current().switching);
        keep(
          device.connection().zones.watch((zones) => {
            if (zones) applyZones(zones);
            else loadZones();
          }),
        );
        keep(
          device.connection().subscribeStream('data', {
            onEvent: (event) => {
              if (event.event !== 'soundLocation') return;
              // Until the zones are known a reading cannot be placed; the first read is under way.
              if (zonesDueAt === undefined) return;
              if (Date.now() >= zonesDueAt) loadZones();
              const location = readSoundLocation(event.data);
              if (location === undefined) return;
              announce(tracker.observe({ at: event.receivedAt, location }));
              scheduleRelease();
            },
            onWarning: (warning) => {
              dropped++;
              if (dropped === 1) node.warn(toNodeError(warning, localise).message);
              showStatus();
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
        clearTimeout(zonesRetryTimer);
      },
    );
  }

  RED.nodes.registerType('conference-audio-active-zone', ActiveZoneNode);
};
