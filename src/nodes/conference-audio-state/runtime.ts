import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow, NodeStatus } from 'node-red';
import { stateSummary } from '../../control/summary';
import type { DeviceState } from '../../device/state';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import { CoalescedStatus } from '../lib/coalesced-status';
import { subscribeAfterDeploy } from '../plain/subscribe-after-deploy';
import { readOutputMode, readStateGroups, TYPE } from './definition';
import { type StateMessage, StateOutput } from './output';

interface StateDef extends NodeDef {
  device?: string;
  groups?: unknown;
  output?: string;
  topic?: string;
}

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;
type DoneFn = (err?: Error) => void;

/** An input that arrived before the first complete reading: answered by it, or by the error meanwhile. */
interface WaitingInput {
  msg: NodeMessageInFlow;
  send: SendFn;
  done: DoneFn;
}

export = (RED: NodeAPI) => {
  const t = (key: string, params?: Record<string, string | number>) => RED._(`${TYPE}.${key}`, params);
  const localise = errorLocaliser(RED);
  const nodeError = (error: unknown) => toNodeError(error, localise);

  function StateNode(this: DeviceUser, def: StateDef) {
    RED.nodes.createNode(this, def);
    const groups = readStateGroups(def.groups);
    if (!groups.ok) this.warn(t('errors.groups', { reason: groups.reason }));
    const mode = readOutputMode(def.output);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    const status = new CoalescedStatus<NodeStatus>((shown) => this.status(shown));
    let followed: DeviceState | undefined;
    /** Why the node cannot follow its device (no device, invalid config): every input fails with it. */
    let unusable: unknown;
    /** A read error is shown until the device answers again (a change or a connected request). */
    let faulty = false;
    /** Read errors are logged once per code, not once per retry, until the device answers again. */
    const reportedCodes = new Set<string>();
    const waiting: WaitingInput[] = [];

    const showSummary = () => {
      if (!followed) return;
      const summary = stateSummary(followed.current());
      status.set({ fill: 'green', shape: 'dot', text: summary !== '' ? summary : t('status.read') });
    };
    this.onDeviceStatus = (shown, connection) => {
      if (followed?.complete === true && connection === 'connected') {
        faulty = false;
        showSummary();
      } else if (!faulty || connection !== 'connected') {
        status.set(shown);
      }
    };

    const device = useDevice(RED, this, def.device, t('status.noDevice'));
    const topicBase = configuredTopic !== '' ? configuredTopic : (device?.displayName ?? '');
    const output = new StateOutput(mode, groups.ok ? groups.value : groups.fallback, topicBase, (messages) =>
      this.send([messages as unknown as NodeMessage[]]),
    );

    /** The state again onto the input message (kept: its other properties pass through). */
    const answer = ({ msg, send, done }: WaitingInput, state: DeviceState) => {
      const messages = output.resend(state.current());
      const bases = messages.map((_, index) => (index === 0 ? msg : RED.util.cloneMessage(msg)));
      const sent = messages.map((message: StateMessage, index) => Object.assign(bases[index] ?? {}, message));
      if (sent.length > 0) send([sent as NodeMessage[]]);
      done();
    };

    const fail = (error: unknown) => {
      for (const input of waiting.splice(0)) input.done(nodeError(error));
    };

    const reportReadError = (error: unknown) => {
      const code = errorCode(error);
      faulty = true;
      if (device) status.set(device.faultStatus(code));
      if (!reportedCodes.has(code)) {
        reportedCodes.add(code);
        this.error(nodeError(error), { topic: topicBase } as NodeMessage);
      }
      // An input waiting for the first reading learns why it does not come.
      fail(error);
    };

    this.on('input', (msg: NodeMessageInFlow, send: SendFn, done: DoneFn) => {
      if (!device) {
        done(nodeError(noDeviceError()));
      } else if (unusable !== undefined) {
        done(nodeError(unusable));
      } else if (followed?.complete === true && output.started) {
        answer({ msg, send, done }, followed);
      } else {
        waiting.push({ msg, send, done });
      }
    });

    if (!device) return;
    subscribeAfterDeploy(
      this,
      (keep) => {
        const state = device.connection().state;
        followed = state;
        keep(
          state.subscribe({
            onComplete: (current) => {
              output.complete(current);
              faulty = false;
              showSummary();
              for (const input of waiting.splice(0)) answer(input, state);
            },
            onChange: (group, next, previous, changed) => {
              reportedCodes.clear();
              faulty = false;
              output.change(group, next, previous, changed);
              if (output.started) showSummary();
            },
            onReadError: (_group, error) => reportReadError(error),
          }),
        );
      },
      (error) => {
        unusable = error;
        if (device) status.set(device.faultStatus(errorCode(error)));
        this.error(nodeError(error), { topic: topicBase } as NodeMessage);
        fail(error);
      },
      () => {
        status.close();
        // Nothing will answer them now; they end without a message.
        for (const input of waiting.splice(0)) input.done();
      },
    );
  }

  RED.nodes.registerType('conference-audio-state', StateNode);
};
