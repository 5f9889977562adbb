import type { NodeAPI, NodeDef, NodeMessageInFlow } from 'node-red';
import { groupsActionUses } from '../../control';
import { answerEachInput } from '../glue/answer-input';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, invalidInput, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { clockTime } from '../status/status';
import { configuredValue } from './configured-value';
import { isActionChoice, MESSAGE_ACTION, TYPE, VALUE_FIELDS } from './definition';

interface ControlDef extends NodeDef {
  device?: string;
  action?: string;
  value?: unknown;
  valueType?: string;
}

type ControlMessage = NodeMessageInFlow & Record<string, unknown>;

/**
 * The `conference-audio-control` node: one input runs one action through src/control's runner on the
 * device's shared state, and sends one message with the resource read back. Glue only: the runner checks,
 * writes and reads.
 */
export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);

  function ControlNode(this: DeviceUser, def: ControlDef) {
    RED.nodes.createNode(this, def);
    const configured = isActionChoice(def.action) ? def.action : undefined;
    if (configured === undefined) this.warn(t('errors.action', { action: String(def.action) }));
    const takesValue = configured !== undefined && VALUE_FIELDS[configured] !== undefined;
    const value = takesValue
      ? configuredValue(RED, this, String(def.value ?? ''), def.valueType ?? 'str')
      : undefined;
    if (value?.problem !== undefined) this.warn(t('errors.value', { reason: value.problem }));

    const device = useDevice(RED, this, def.device, t('status.noDevice'));
    if (device && configured !== undefined) {
      // What the action uses stays read (audio polled for a mute) while the node is deployed: a toggle can
      // flip the cached value. "Set by msg" may run any action, so it keeps every group.
      const groups = configured === MESSAGE_ACTION ? undefined : groupsActionUses(configured);
      subscribeAfterDeploy(
        this,
        (keep) => keep(device.connection().state.retain(groups)),
        // An unusable config node says so itself, and each input reports it to a Catch node.
        () => undefined,
      );
    }

    /** A write the device does not show is said once per action, not at every message. */
    const saidNotApplied = new Set<string>();

    answerEachInput(this, {
      start: (msg: ControlMessage) => {
        if (!device) throw noDeviceError();
        if (configured === undefined) throw invalidInput(t('errors.action', { action: String(def.action) }));
        if (configured === MESSAGE_ACTION) return device.connection().control(msg.action, msg.payload);
        if (value === undefined) return device.connection().control(configured, undefined);
        return value.read(msg).then((read) => device.connection().control(configured, read));
      },
      answer: (msg, result) => {
        msg.payload = result.payload;
        if (result.previous === undefined) delete msg.previous;
        else msg.previous = result.previous;
        msg.action = result.action;
        if (result.applied === undefined) delete msg.applied;
        else msg.applied = result.applied;
        if (result.profile === undefined) delete msg.profile;
        else msg.profile = { ...result.profile };
        if (result.applied === false && !saidNotApplied.has(result.action)) {
          saidNotApplied.add(result.action);
          this.warn(t('errors.notApplied', { action: result.action }));
        }
        this.status({
          fill: 'green',
          shape: 'dot',
          text: t('status.done', { action: t(`actions.${result.action}`), time: clockTime(new Date()) }),
        });
      },
      failure: (error) => {
        if (device) this.status(device.faultStatus(errorCode(error)));
        return toNodeError(error, localise);
      },
    });
  }

  RED.nodes.registerType('conference-audio-control', ControlNode);
};
