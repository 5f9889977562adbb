import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow } from 'node-red';
import { packageIdentity } from '../../api/version';
import type { StateGroups } from '../../control';
import {
  type CommandRun,
  commandedEntity,
  type DeviceFacts,
  DiscoveryBridge,
  homeAssistantStatusTopic,
  isDeviceTopic,
  leftoverRemovals,
  type MqttMessage,
  parseCommand,
  payloadText,
} from '../../homeassistant';
import { stepVolumeTo } from '../../homeassistant/volume';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceConfigNode, type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorCode, errorLocaliser, invalidInput, toNodeError } from '../glue/errors';
import { subscribeAfterDeploy } from '../glue/subscribe-after-deploy';
import { settingValue } from '../settings/node-settings';
import { HOMEASSISTANT_DEFAULTS, readTopic, TYPE } from './definition';
import { followDevice } from './follow';

interface HomeAssistantDef extends NodeDef {
  device?: string;
  prefix?: string;
  base?: string;
  room?: string;
}

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;

/** Zone reads that say the room has no zones (a model without them): no active zone entity, no error. */
const NO_ZONES_CODES = new Set(['NOT_FOUND', 'UNSUPPORTED_MODEL']);

/**
 * The `conference-audio-homeassistant` node: the device as a Home Assistant device over MQTT discovery,
 * through the user's own `mqtt in` and `mqtt out` nodes. Glue only: src/homeassistant builds the
 * messages and checks the commands, the device connection's control runs them.
 */
export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);

  function HomeAssistantNode(this: DeviceUser, def: HomeAssistantDef) {
    RED.nodes.createNode(this, def);
    const prefix = settingValue(readTopic(def.prefix, HOMEASSISTANT_DEFAULTS.prefix), (reason) =>
      this.warn(t('errors.prefix', { reason })),
    );
    const base = settingValue(readTopic(def.base, HOMEASSISTANT_DEFAULTS.base), (reason) =>
      this.warn(t('errors.base', { reason })),
    );
    const room = typeof def.room === 'string' ? def.room.trim() : '';

    let groups: StateGroups = {};
    let activeZone: string | null | undefined;
    let backgroundNoise: number | undefined;
    let highestVolume: number | undefined;
    let zonesError: string | undefined;

    // What this node's last run left retained, for when the prefix or base changed. In the global context:
    // Node-RED empties a node's own context whenever the node closes, a redeploy too.
    const memory = this.context().global;
    const memoryKey = `conferenceAudioHomeAssistant_${this.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let remembered = '';
    const publish = (messages: MqttMessage[]) => {
      if (messages.length === 0) return;
      this.send([messages.map((message): NodeMessage => ({ ...message }))]);
      const topics = bridge.retainedTopics;
      // None until the device was read: the last run's list is kept until there is a new one.
      if (topics.length === 0 || topics.join('\n') === remembered) return;
      remembered = topics.join('\n');
      memory.set(memoryKey, topics);
    };
    const facts = (): DeviceFacts => ({ groups, activeZone, backgroundNoise, highestVolume });
    const showCount = () => {
      const count = bridge.entities.length;
      if (count > 0) this.status({ fill: 'green', shape: 'dot', text: t('status.entities', { count }) });
    };

    // Registering with the device may call onDeviceStatus at once, which needs the bridge.
    let device: DeviceConfigNode | undefined;
    const bridge = new DiscoveryBridge({
      prefix,
      base,
      origin: packageIdentity(),
      identity: () => {
        const client = device?.connection().client;
        return {
          name: room || (device?.displayName ?? ''),
          manufacturer: client?.vendor ?? '',
          url: client?.baseUrl ?? '',
        };
      },
    });
    this.onDeviceStatus = (shown, state) => {
      publish(bridge.setAvailable(state === 'connected'));
      if (state === 'connected' && bridge.entities.length > 0) showCount();
      else this.status(shown);
    };
    device = useDevice(RED, this, def.device, t('status.noDevice'));
    const refresh = () => {
      publish(bridge.update(facts()));
      showCount();
    };

    /** Runs a checked command through the device's control, one action (or volume step) after the other. */
    async function run(command: CommandRun): Promise<void> {
      if (!device) throw noDeviceError();
      const connection = device.connection();
      if (command.kind === 'action') {
        await connection.control(command.action, command.value);
        return;
      }
      const current = groups.audio?.speakerVolume;
      if (typeof current !== 'number') throw invalidInput(t('errors.volumeUnknown'));
      await stepVolumeTo(current, command.target, async (direction) => {
        const result = await connection.control('volume', direction);
        const volume = (result.payload as { speakerVolume?: unknown } | null)?.speakerVolume;
        return typeof volume === 'number' ? volume : undefined;
      });
    }

    this.on('input', (msg: NodeMessageInFlow, _send: SendFn, done: (err?: Error) => void) => {
      try {
        if (msg.topic === homeAssistantStatusTopic(prefix)) {
          // Home Assistant's birth message: it has forgotten what was announced, or never heard it.
          if (payloadText(msg.payload)?.trim() === 'online') publish(bridge.announce());
          done();
          return;
        }
        const topics = bridge.topics;
        // Another device's node shares the mqtt in: its topics are not this node's to answer.
        if (topics === undefined || !isDeviceTopic(topics, msg.topic)) {
          done();
          return;
        }
        const entity = commandedEntity(topics, bridge.entities, msg.topic);
        if (entity === undefined) throw invalidInput(t('errors.noEntity', { topic: String(msg.topic) }));
        const republish = () => {
          const state = bridge.stateMessage(entity);
          if (state !== undefined) publish([state]);
        };
        let command: CommandRun;
        try {
          command = parseCommand(entity, msg.payload);
        } catch (error) {
          republish();
          throw error;
        }
        run(command).then(
          () => done(),
          (error: unknown) => {
            // Home Assistant shows what it asked for until the state says otherwise.
            republish();
            if (device) this.status(device.faultStatus(errorCode(error)));
            done(toNodeError(error, localise));
          },
        );
      } catch (error) {
        done(toNodeError(error, localise));
      }
    });

    if (!device) return;
    let stopFollowing: (() => void) | undefined;
    subscribeAfterDeploy(
      this,
      (keep) => {
        const previous: unknown = memory.get(memoryKey);
        if (Array.isArray(previous))
          publish(
            leftoverRemovals(
              previous.filter((topic) => typeof topic === 'string'),
              prefix,
              base,
            ),
          );
        publish(bridge.announce());
        stopFollowing = followDevice(
          device.connection(),
          {
            groups: (next) => {
              groups = next;
              const volume = next.audio?.speakerVolume;
              if (typeof volume === 'number') highestVolume = Math.max(volume, highestVolume ?? 0);
              refresh();
            },
            activeZone: (label) => {
              activeZone = label;
              refresh();
            },
            noise: (level) => {
              backgroundNoise = level;
              refresh();
            },
            error: (error) => {
              const code = errorCode(error);
              if (NO_ZONES_CODES.has(code) || code === zonesError) return;
              zonesError = code;
              this.error(toNodeError(error, localise), {});
            },
          },
          keep,
        );
        publish(bridge.setAvailable(device.connection().client.state === 'connected'));
      },
      (error) => this.error(toNodeError(error, localise), {}),
      () => stopFollowing?.(),
    );
  }

  RED.nodes.registerType('conference-audio-homeassistant', HomeAssistantNode);
};
