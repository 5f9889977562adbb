import type { NodeAPI, NodeDef, NodeMessage, NodeStatus } from 'node-red';
import { copyJson } from '../../api/json-copy';
import { dataErrorEventSubject } from '../../api/protocol';
import {
  DATA_EVENT_NAMES,
  type StreamCondition,
  type StreamEvent,
  type StreamKind,
} from '../../device/stream-hub';
import { streamErrorReporter, worstCondition } from '../../device/stream-status';
import { RateWindow } from '../../timing/rate-window';
import { RepeatGate } from '../../timing/repeat-gate';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, useDevice } from '../glue/device';
import { errorLocaliser, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { joinTopic, nodeTopicNames } from '../messages/topic';
import { settingValue } from '../settings/node-settings';
import { CoalescedStatus } from '../status/coalesced-status';
import { withNote } from '../status/status';
import { type LiveEventChoice, readLiveEvents, readRate, TYPE } from './definition';

interface EventsDef extends NodeDef {
  device?: string;
  events?: unknown;
  rate?: number | string;
  topic?: string;
}

/** Which of the data stream's events (and their error events) a node passes on. */
function dataEventFilter(chosen: readonly LiveEventChoice[]): (name: string) => boolean {
  const names = new Set<string>(DATA_EVENT_NAMES.filter((name) => chosen.includes(name)));
  return (name) => names.has(name) || names.has(dataErrorEventSubject(name) ?? '');
}

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);

  function EventsNode(this: DeviceUser, def: EventsDef) {
    RED.nodes.createNode(this, def);
    const node: DeviceUser = this;
    const chosen = settingValue(readLiveEvents(def.events), (reason) =>
      node.warn(t('errors.events', { reason })),
    );
    const rate = settingValue(readRate(def.rate), (reason) => node.warn(t('errors.rate', { reason })));
    const limiter = new RateWindow(rate);
    const passesData = dataEventFilter(chosen);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    const repeatedErrors = new RepeatGate();
    const status = new CoalescedStatus<NodeStatus>((shown) => node.status(shown));
    node.on('close', () => status.close());
    const safeName = nodeTopicNames((text) => node.warn(text), t);

    const conditions = new Map<StreamKind, StreamCondition>();
    // The streams' condition is the status; the request connection's is not (it may sit idle).
    node.onDeviceStatus = (shown, state) => {
      if (state === 'invalid') status.set(shown);
    };
    const device = useDevice(RED, node, def.device, t('status.noDevice'));
    if (!device) return;
    const topicBase = configuredTopic !== '' ? configuredTopic : device.displayName;

    // One reporter per stream; with a message, so that a Catch node sees the error.
    const reporters = new Map<StreamKind, (condition: StreamCondition) => void>();
    const reportError = (condition: StreamCondition, kind: StreamKind) => {
      let reporter = reporters.get(kind);
      if (reporter === undefined) {
        reporter = streamErrorReporter((error) =>
          node.error(toNodeError(error, localise), { topic: topicBase }),
        );
        reporters.set(kind, reporter);
      }
      reporter(condition);
    };

    /** Events the streams dropped (over the size cap): counted in the status; the device node logs them. */
    let dropped = 0;
    const showStreams = () => {
      const note = dropped === 0 ? undefined : t('status.dropped', { count: dropped });
      if (device) status.set(withNote(device.streamStatus(worstCondition(conditions)), note));
    };

    function showCondition(condition: StreamCondition, kind: StreamKind) {
      reportError(condition, kind);
      conditions.set(kind, condition);
      showStreams();
    }

    function countDropped() {
      dropped++;
      showStreams();
    }

    function forward(event: StreamEvent) {
      // A device error event (`error (<event name>)`) passes at most once a second per name.
      const isError = dataErrorEventSubject(event.event) !== undefined;
      if (isError && !repeatedErrors.admit(event.event, event.receivedAt)) return;
      const msg: NodeMessage & { event: string } = {
        event: event.event,
        // Every node of the device gets the same event: a copy each, so one flow's edits stay its own.
        payload: copyJson(event.data),
        // The name as the device sent it is msg.event; the topic takes only what a broker accepts.
        topic: joinTopic(topicBase, safeName(event.event)),
      };
      node.send(msg);
    }

    if (device) {
      subscribeAfterDeploy(
        node,
        (keep) => {
          if (chosen.includes('soundLocation') || chosen.includes('deviceMetrics')) {
            keep(
              device.connection().subscribeStream('data', {
                onEvent: (event) => {
                  if (!passesData(event.event)) return;
                  // Silent readings count like any other: the rate is about messages, not about talk.
                  if (event.event === 'soundLocation' && !limiter.admit(event.receivedAt)) return;
                  forward(event);
                },
                onCondition: showCondition,
                onWarning: countDropped,
              }),
            );
          }
          if (chosen.includes('changes')) {
            keep(
              device.connection().subscribeStream('changes', {
                onEvent: forward,
                onCondition: showCondition,
                onWarning: countDropped,
              }),
            );
          }
        },
        (error) => node.error(toNodeError(error, localise), { topic: topicBase }),
      );
    }
  }

  RED.nodes.registerType('conference-audio-events', EventsNode);
};
