import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow, NodeSettings, NodeStatus } from 'node-red';
import { MAX_TIMER_SECONDS } from '../../api/settings-rules';
import type { ConnectionState } from '../../api/types';
import type { ZonesListener } from '../../device/zones';
import { renderZoneMap } from '../../zones';
import type { ZoneReadResult } from '../../zones/types';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { joinTopic, nodeTopicNames } from '../messages/topic';
import { readNonNegative } from '../settings/node-settings';
import { clockTime } from '../status/status';
import {
  MIN_INTERVAL_SECONDS,
  MIN_INTERVAL_SETTING,
  mapWords,
  minimumInterval,
  readOutputMode,
  TYPE,
  ZONES_DEFAULTS,
} from './definition';
import { arrayParts, ZoneChangeTracker, zonesWithGeometry } from './zone-messages';

interface ZonesDef extends NodeDef {
  device?: string;
  output?: string;
  interval?: number | string;
  onStart?: boolean;
  topic?: string;
}

/** What this node reads from settings.js; exported to the editor, whose dialog checks the interval too. */
interface ZonesSettings {
  [MIN_INTERVAL_SETTING]: number;
}

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);
  const nodeError = (error: unknown) => toNodeError(error, localise);

  /** settings.js may lower (or raise) the floor; the editor reads the same setting (exported below). */
  const minimumSeconds = () =>
    minimumInterval((RED.settings as unknown as Record<string, unknown>)[MIN_INTERVAL_SETTING]);
  /** The room map in the runtime's language. */
  const words = () => mapWords((key) => t(key));

  function ZonesNode(this: DeviceUser, def: ZonesDef) {
    RED.nodes.createNode(this, def);
    const node: DeviceUser = this;
    const mode = readOutputMode(def.output);
    const baseTopic = typeof def.topic === 'string' ? def.topic : ZONES_DEFAULTS.topic;
    const tracker = new ZoneChangeTracker();
    const safeName = nodeTopicNames((text) => node.warn(text), t);
    let closed = false;
    let lastRead: { count: number; at: Date } | undefined;
    let lastErrorCode: string | undefined;

    /** The count and time the status shows now; undefined while it shows something else. */
    let shownRead: string | undefined;
    const showStatus = (status: NodeStatus) => {
      shownRead = undefined;
      node.status(status);
    };
    const showRead = () => {
      if (!lastRead) return;
      const time = clockTime(lastRead.at);
      // Reads come faster than the status changes (it shows seconds): translating and publishing the
      // same text again cost a sixth of a read's latency (bench/overhead.ts) and told nobody anything.
      const shown = `${lastRead.count} ${time}`;
      if (shown === shownRead) return;
      node.status({ fill: 'green', shape: 'dot', text: t('status.read', { count: lastRead.count, time }) });
      shownRead = shown;
    };
    node.onDeviceStatus = (status: NodeStatus, state: ConnectionState | 'invalid') => {
      // Once zones were read, "connected" is better told by the count and time of the last read.
      if (state === 'connected' && lastRead) showRead();
      else showStatus(status);
    };

    const device = useDevice(RED, node, def.device, t('status.noDevice'));

    /** The messages for one read; `base` is the input message (kept) or a fresh one. */
    function messagesFor(read: ZoneReadResult, base: NodeMessage): NodeMessage[] {
      const topic = baseTopic !== '' ? baseTopic : typeof base.topic === 'string' ? base.topic : '';
      if (mode === 'each') {
        const zones = zonesWithGeometry(read.zones);
        const groupId = RED.util.generateId();
        const outer = (base as { parts?: unknown }).parts;
        return zones.map((zone, index) => {
          const msg = RED.util.cloneMessage(base) as NodeMessage & Record<string, unknown>;
          msg.payload = zone;
          // `<topic>/<zone id>`, the id made one safe topic level.
          msg.topic = joinTopic(topic, safeName(zone.id, { oneLevel: true }));
          msg.parts = arrayParts(groupId, index, zones.length, outer);
          msg.source = read.source;
          return msg;
        });
      }
      const msg = base as NodeMessage & Record<string, unknown>;
      if (mode === 'changes') {
        const changes = tracker.update(read.zones, read.source);
        if (!changes) return [];
        msg.payload = changes;
      } else if (mode === 'map') {
        // The room map as the editor's "Show zones" draws it, e.g. for an HTTP response or a dashboard.
        msg.payload = renderZoneMap(read.zones, { words: words() });
        msg.zones = zonesWithGeometry(read.zones);
      } else {
        msg.payload = zonesWithGeometry(read.zones);
      }
      msg.topic = topic;
      msg.source = read.source;
      if (read.warnings.length > 0) msg.warnings = read.warnings;
      else delete msg.warnings;
      return [msg];
    }

    function sendAll(messages: NodeMessage[], send: SendFn) {
      // One call with an array on the only output sends them in order.
      if (messages.length > 0) send([messages]);
    }

    function recordSuccess(read: ZoneReadResult) {
      lastErrorCode = undefined;
      lastRead = { count: read.zones.length, at: new Date() };
      showRead();
    }

    function recordFailure(error: unknown) {
      const code = errorCode(error);
      // In the device node's words for the fault; without a device, "no device" stays.
      if (device) showStatus(device.faultStatus(code));
    }

    /** A failure no input asked about: reported to Catch only when it differs from the previous one. */
    function backgroundFailure(error: unknown) {
      if (closed) return;
      recordFailure(error);
      const code = errorCode(error);
      if (code === lastErrorCode) return;
      lastErrorCode = code;
      node.error(nodeError(error), { topic: baseTopic } as NodeMessage);
    }

    /** What the device's zones owner hands over: followed zones (changes mode) and reads on the interval. */
    const listener: ZonesListener = {
      onZones: (read) => {
        if (closed) return;
        recordSuccess(read);
        sendAll(messagesFor(read, { topic: baseTopic } as NodeMessage), (m) => node.send(m));
      },
      onError: backgroundFailure,
    };

    /** A read for an input: shared with one in flight; the node answers it itself, not as a follower. */
    async function readForInput(): Promise<ZoneReadResult> {
      if (!device) throw noDeviceError();
      return device.connection().zones.read(listener);
    }

    node.on('input', (msg: NodeMessageInFlow, send: SendFn, done: (err?: Error) => void) => {
      readForInput().then(
        (read) => {
          if (closed) {
            done();
            return;
          }
          recordSuccess(read);
          try {
            sendAll(messagesFor(read, msg), send);
            done();
          } catch (error) {
            done(nodeError(error));
          }
        },
        (error: unknown) => {
          if (!closed) recordFailure(error);
          done(nodeError(error));
        },
      );
    });

    // Decimal only: "0x10" is a typo, not a read every 16 s. Unreadable: no timer, with a warning.
    const interval = readNonNegative(def.interval, ZONES_DEFAULTS.interval, 'Interval');
    if (!interval.ok) node.warn(t('errors.intervalUnreadable', { reason: interval.reason }));
    const intervalSeconds = interval.ok ? interval.value : 0;
    let everyMs: number | undefined;
    if (intervalSeconds > MAX_TIMER_SECONDS) {
      // Node's timers overflow past 24.8 days and would then read every millisecond.
      node.error(t('errors.intervalTooLong', { interval: intervalSeconds, max: MAX_TIMER_SECONDS }));
    } else if (device && Number.isFinite(intervalSeconds) && intervalSeconds > 0) {
      const seconds = Math.max(intervalSeconds, minimumSeconds());
      if (seconds !== intervalSeconds)
        node.warn(t('errors.intervalRaised', { interval: intervalSeconds, seconds }));
      everyMs = seconds * 1000;
    }
    const follow = mode === 'changes';
    const onStart = def.onStart === true;
    // The interval is the user's request to the zones owner, which holds the timer: a read still running is
    // never started again. In changes mode the node follows the zones, so a change is reported at once.
    // After the deploy finished, so the first read's status and messages reach a started flow.
    if (device && (follow || everyMs !== undefined || onStart)) {
      subscribeAfterDeploy(
        node,
        (keep) => keep(device.connection().zones.subscribe(listener, { follow, everyMs, initial: onStart })),
        backgroundFailure,
      );
    }

    node.on('close', () => {
      closed = true;
    });
  }

  const settings: NodeSettings<ZonesSettings> = {
    [MIN_INTERVAL_SETTING]: { value: MIN_INTERVAL_SECONDS, exportable: true },
  };
  RED.nodes.registerType('conference-audio-zones', ZonesNode, { settings });
};
