import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow, NodeStatus } from 'node-red';
import { copyJson } from '../../api/json-copy';
import type { GroupState } from '../../control';
import { type ActiveZone, ActiveZoneFollower } from '../../device/active-zone-follower';
import type { StreamCondition } from '../../device/stream-hub';
import { streamErrorReporter } from '../../device/stream-status';
import type { KnownZones } from '../../device/zones';
import {
  type ActiveZoneTiming,
  type CameraInput,
  hasZoneType,
  MIN_RELEASE_MS,
  summariseLocation,
  zoneTypesOf,
} from '../../zones';
import type { ZoneReadResult } from '../../zones/types';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { joinTopic, nodeTopicNames } from '../messages/topic';
import { settingValue } from '../settings/node-settings';
import { CoalescedStatus } from '../status/coalesced-status';
import { withNote } from '../status/status';
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
    const follower = new ActiveZoneFollower(
      { zoneType, ...nodeTiming },
      {
        onChange: (change) => announce(change),
        onZones: (known) => applyZones(known),
        onZonesError: (error) => zonesFailed(error),
        onDropped: () => {
          dropped++;
          showStatus();
        },
        onCondition: (next) => {
          reportStreamError(next);
          condition = next;
          showStatus();
        },
      },
    );
    const status = new CoalescedStatus<NodeStatus>((shown) => node.status(shown));
    node.on('close', () => status.close());
    const safeName = nodeTopicNames((text) => node.warn(text), t);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    let closed = false;
    let condition: StreamCondition = { state: 'connecting' };
    let lastZonesError: string | undefined;
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
    /** Data events the stream dropped (over the size cap): counted in the status; the device node logs them. */
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
      const zone = follower.current.zone;
      show(
        zone === null
          ? { fill: 'grey', shape: 'dot', text: noZoneText }
          : { fill: 'green', shape: 'dot', text: zone.label !== '' ? zone.label : zone.id },
      );
    }

    /** The answer as a message: `base` is an input message (kept) or a fresh one. */
    function messageFor(change: ActiveZone, base: NodeMessage): NodeMessage {
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

    function announce(change: ActiveZone | undefined) {
      if (change === undefined || closed) return;
      node.send(messageFor(change, {}));
      showStatus();
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
      follower.setTiming(next);
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

    /** Told before the follower applies the zones: a change of the active zone they bring comes next. */
    function applyZones(known: KnownZones) {
      const hadError = lastZonesError !== undefined;
      lastZonesError = undefined;
      if (checkZoneType(known) || hadError) showStatus();
    }

    /** The zones' owner tries a failed read again by itself; the node tells of it, once per cause. */
    function zonesFailed(error: unknown) {
      if (closed) return;
      const code = errorCode(error);
      // With a message, so that a Catch node sees it.
      if (code !== lastZonesError) node.error(toNodeError(error, localise), { topic: topicBase });
      lastZonesError = code;
      showStatus();
    }

    node.on('input', (msg: NodeMessageInFlow, send: SendFn, done: (err?: Error) => void) => {
      try {
        send(messageFor(follower.current, msg as NodeMessage));
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
        keep(follower.start(device.connection()));
      },
      (error) => node.error(toNodeError(error, localise), { topic: topicBase }),
      () => {
        closed = true;
        follower.close();
      },
    );
  }

  RED.nodes.registerType('conference-audio-active-zone', ActiveZoneNode);
};
