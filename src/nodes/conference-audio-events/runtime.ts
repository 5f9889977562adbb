import type { NodeAPI, NodeDef, NodeMessage } from 'node-red';
import { type DeviceUser, useDevice } from '../glue/device';
import { errorLocaliser, toNodeError } from '../glue/errors';
import { DATA_EVENT_NAMES, type StreamCondition, type StreamEvent, type StreamKind } from '../lib/stream-hub';
import { streamErrorReporter, worstCondition } from '../lib/stream-status';
import { RateWindow } from '../plain/rate-window';
import { statusText } from '../plain/status';
import { subscribeAfterDeploy } from '../plain/subscribe-after-deploy';
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
  return (name) => names.has(name) || names.has(/^error \((.*)\)$/.exec(name)?.[1] ?? '');
}

export = (RED: NodeAPI) => {
  const t = (key: string, params?: Record<string, string | number>) => RED._(`${TYPE}.${key}`, params);
  const localise = errorLocaliser(RED);

  function EventsNode(this: DeviceUser, def: EventsDef) {
    RED.nodes.createNode(this, def);
    const node: DeviceUser = this;
    const events = readLiveEvents(def.events);
    if (!events.ok) node.warn(t('errors.events', { reason: events.reason }));
    const chosen = events.ok ? events.value : events.fallback;
    const rate = readRate(def.rate);
    if (!rate.ok) node.warn(t('errors.rate', { reason: rate.reason }));
    const limiter = new RateWindow(rate.ok ? rate.value : rate.fallback);
    const passesData = dataEventFilter(chosen);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    const conditions = new Map<StreamKind, StreamCondition>();
    let shown: StreamCondition | undefined;
    // The streams' condition is the status; the request connection's is not (it may sit idle).
    node.onDeviceStatus = (status, state) => {
      if (state === 'invalid') node.status(status);
    };
    const device = useDevice(RED, node, def.device, statusText(TYPE, 'status.noDevice'));
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

    function showCondition(condition: StreamCondition, kind: StreamKind) {
      reportError(condition, kind);
      conditions.set(kind, condition);
      const worst = worstCondition(conditions);
      if (shown !== undefined && JSON.stringify(shown) === JSON.stringify(worst)) return;
      shown = worst;
      node.status(device?.streamStatus(worst) ?? {});
    }

    function forward(event: StreamEvent) {
      const msg: NodeMessage & { event: string } = {
        event: event.event,
        // Every node of the device gets the same event: a copy each, so one flow's edits stay its own.
        payload: structuredClone(event.data),
        topic: `${topicBase}/${event.event}`,
      };
      node.send(msg);
    }

    if (device) {
      subscribeAfterDeploy(
        node,
        (keep) => {
          if (chosen.includes('soundLocation') || chosen.includes('deviceMetrics')) {
            keep(
              device.subscribeStream('data', {
                onEvent: (event) => {
                  if (!passesData(event.event)) return;
                  // Silent readings count like any other: the rate is about messages, not about talk.
                  if (event.event === 'soundLocation' && !limiter.admit(event.receivedAt)) return;
                  forward(event);
                },
                onCondition: showCondition,
              }),
            );
          }
          if (chosen.includes('changes')) {
            keep(device.subscribeStream('changes', { onEvent: forward, onCondition: showCondition }));
          }
        },
        (error) => node.error(toNodeError(error, localise), { topic: topicBase }),
      );
    }
  }

  RED.nodes.registerType('conference-audio-events', EventsNode);
};
