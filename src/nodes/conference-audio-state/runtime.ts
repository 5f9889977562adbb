import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow, NodeStatus } from 'node-red';
import type { StateGroupName } from '../../control/state-groups';
import { SUMMARY_GROUPS, type SummaryWords, stateSummary } from '../../control/summary';
import type { DeviceState } from '../../device/state';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { settingValue } from '../settings/node-settings';
import { CoalescedStatus } from '../status/coalesced-status';
import { readOutputMode, readStateGroups, TYPE } from './definition';
import { StateOutput } from './output';

interface StateDef extends NodeDef {
  device?: string;
  groups?: unknown;
  output?: string;
  topic?: string;
}

/** How often a shown read fault looks whether its group was read again since. */
const RECOVERY_CHECK_MS = 1000;

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;
type DoneFn = (err?: Error) => void;

/** An input that arrived before the first complete reading: answered by it, or by the error meanwhile. */
interface WaitingInput {
  msg: NodeMessageInFlow;
  send: SendFn;
  done: DoneFn;
}

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);
  const summaryWords: SummaryWords = {
    micMuted: t('status.summary.micMuted'),
    micOn: t('status.summary.micOn'),
    volume: (volume) => t('status.summary.volume', { volume }),
    calibrating: t('status.summary.calibrating'),
    barUnplugged: t('status.summary.barUnplugged'),
  };
  const nodeError = (error: unknown) => toNodeError(error, localise);

  function StateNode(this: DeviceUser, def: StateDef) {
    RED.nodes.createNode(this, def);
    const chosenGroups = settingValue(readStateGroups(def.groups), (reason) =>
      this.warn(t('errors.groups', { reason })),
    );
    /** What it sends and what its status summarises: the state reads nothing else for it. */
    const neededGroups = [...new Set([...chosenGroups, ...SUMMARY_GROUPS])];
    const mode = readOutputMode(def.output);
    const configuredTopic = typeof def.topic === 'string' ? def.topic.trim() : '';

    const status = new CoalescedStatus<NodeStatus>((shown) => this.status(shown));
    let followed: DeviceState | undefined;
    /** Why the node cannot follow its device (no device, invalid config): every input fails with it. */
    let unusable: unknown;
    /**
     * The groups whose last read failed, each with when it was read before: the fault is shown until each
     * is read again (or the connection comes back), checked now and then while any is failing.
     */
    const failing = new Map<StateGroupName, number>();
    let recoveryCheck: NodeJS.Timeout | undefined;
    /** Read errors are logged once per code, not once per retry, until the device answers again. */
    const reportedCodes = new Set<string>();
    const waiting: WaitingInput[] = [];

    const showSummary = () => {
      if (!followed) return;
      const summary = stateSummary(followed.current(), summaryWords);
      status.set({ fill: 'green', shape: 'dot', text: summary !== '' ? summary : t('status.read') });
    };
    const recovered = (groups: Iterable<StateGroupName>) => {
      for (const group of groups) failing.delete(group);
      if (failing.size > 0) return;
      clearInterval(recoveryCheck);
      recoveryCheck = undefined;
      reportedCodes.clear();
      if (output.started) showSummary();
    };
    const readAgain = () =>
      [...failing]
        .filter(([group, before]) => (followed?.get(group)?.readAt ?? before) > before)
        .map(([group]) => group);
    this.onDeviceStatus = (shown, connection) => {
      if (followed?.hasRead(neededGroups) === true && connection === 'connected')
        recovered([...failing.keys()]);
      else if (failing.size === 0 || connection !== 'connected') status.set(shown);
    };

    const device = useDevice(RED, this, def.device, t('status.noDevice'));
    const topicBase = configuredTopic !== '' ? configuredTopic : (device?.displayName ?? '');
    const output = new StateOutput(mode, chosenGroups, topicBase, (messages) => this.send([messages]));

    /** The state again onto the input message (kept: its other properties pass through). */
    const answer = ({ msg, send, done }: WaitingInput, state: DeviceState) => {
      const messages = output.resend(state.current());
      // Copies first: the input message itself carries the first group.
      const bases = messages.map((_, index) => (index === 0 ? msg : RED.util.cloneMessage(msg)));
      const sent = messages.map((message, index) => Object.assign(bases[index] ?? {}, message));
      if (sent.length > 0) send([sent]);
      done();
    };

    const fail = (error: unknown) => {
      for (const input of waiting.splice(0)) input.done(nodeError(error));
    };

    const reportReadError = (group: StateGroupName, error: unknown) => {
      const code = errorCode(error);
      if (!failing.has(group)) failing.set(group, followed?.get(group)?.readAt ?? 0);
      recoveryCheck ??= setInterval(() => recovered(readAgain()), RECOVERY_CHECK_MS);
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
      } else if (followed?.hasRead(neededGroups) === true && output.started) {
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
            groups: neededGroups,
            onComplete: (current) => {
              output.complete(current);
              // The summary, unless a group failed again after it was read.
              recovered(readAgain());
              for (const input of waiting.splice(0)) answer(input, state);
            },
            onChange: (group, next, previous, changed) => {
              output.change(group, next, previous, changed);
              if (failing.has(group)) recovered([group]);
              else if (output.started && failing.size === 0) showSummary();
            },
            onReadError: reportReadError,
            // Said once per kind by the state itself: something the device sent that was dropped.
            onWarning: (_group, message) => this.warn(message),
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
        clearInterval(recoveryCheck);
        // Nothing will answer them now; they end without a message.
        for (const input of waiting.splice(0)) input.done();
      },
    );
  }

  RED.nodes.registerType('conference-audio-state', StateNode);
};
