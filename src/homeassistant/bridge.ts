/**
 * One device as Home Assistant sees it, as MQTT messages: the configs to publish (again), the configs to
 * remove, and the states that changed. It keeps what it published last, so that each update sends only
 * what differs; `announce` sends everything again (after a deploy, when Home Assistant comes online).
 */
import {
  type BridgeTopics,
  bridgeAvailabilityTopic,
  configTopic,
  type DeviceIdentity,
  deviceAvailabilityTopic,
  deviceBlock,
  deviceTopicId,
  entityConfig,
  hardwareIdOf,
  OFFLINE,
  ONLINE,
  type OriginInfo,
  stateTopic,
} from './discovery';
import { type DeviceFacts, deviceEntities, type Entity } from './entities';

export interface MqttMessage {
  topic: string;
  /** Empty: removes a retained config or state. */
  payload: string;
  retain: boolean;
}

export interface BridgeOptions {
  prefix: string;
  base: string;
  origin: OriginInfo;
  /** Read at each update: the maker's word may be learned from the device meanwhile. */
  identity: () => DeviceIdentity;
}

const retained = (topic: string, payload: string): MqttMessage => ({ topic, payload, retain: true });

export class DiscoveryBridge {
  readonly #options: BridgeOptions;
  #facts: DeviceFacts = { groups: {} };
  #topics: BridgeTopics | undefined;
  #entities: Entity[] = [];
  /** What each config topic holds now, as published. */
  #configs = new Map<string, string>();
  /** What each state topic holds now, as published. */
  #states = new Map<string, string>();
  #available = false;

  constructor(options: BridgeOptions) {
    this.#options = options;
  }

  /** The topics of the device; undefined until its hardware id was read. */
  get topics(): BridgeTopics | undefined {
    return this.#topics;
  }

  get entities(): readonly Entity[] {
    return this.#entities;
  }

  get facts(): DeviceFacts {
    return this.#facts;
  }

  /** New facts: configs added, changed or removed, and the states that changed. */
  update(facts: DeviceFacts): MqttMessage[] {
    this.#facts = facts;
    const hardwareId = hardwareIdOf(facts.groups.hardware);
    const messages: MqttMessage[] = [];
    if (hardwareId === undefined) return messages;
    const device = deviceTopicId(hardwareId);
    if (this.#topics !== undefined && this.#topics.device !== device) {
      // Another device answers at this address: the old one's entities go.
      messages.push(...this.#removeAll());
    }
    const fresh = this.#topics === undefined;
    this.#topics = { prefix: this.#options.prefix, base: this.#options.base, device };
    if (fresh)
      messages.push(retained(deviceAvailabilityTopic(this.#topics), this.#available ? ONLINE : OFFLINE));
    messages.push(...this.#sync(false));
    return messages;
  }

  /** Every config and state again, with both availabilities. */
  announce(): MqttMessage[] {
    const messages = [retained(bridgeAvailabilityTopic(this.#options.base), ONLINE)];
    if (this.#topics === undefined) return messages;
    messages.push(retained(deviceAvailabilityTopic(this.#topics), this.#available ? ONLINE : OFFLINE));
    messages.push(...this.#sync(true));
    return messages;
  }

  /** The device connection's availability; a message only when it changed and the device is known. */
  setAvailable(available: boolean): MqttMessage[] {
    if (available === this.#available) return [];
    this.#available = available;
    if (this.#topics === undefined) return [];
    return [retained(deviceAvailabilityTopic(this.#topics), available ? ONLINE : OFFLINE)];
  }

  /** Every retained topic this bridge holds now: configs, states and the device's availability. */
  get retainedTopics(): string[] {
    const topics = [...this.#configs.keys(), ...this.#states.keys()];
    if (this.#topics !== undefined) topics.push(deviceAvailabilityTopic(this.#topics));
    return topics;
  }

  /** An entity's state as last published, to publish again after a command the device never took. */
  stateMessage(entity: Entity): MqttMessage | undefined {
    if (this.#topics === undefined || !entity.hasState || entity.state === undefined) return undefined;
    return retained(stateTopic(this.#topics, entity.key), entity.state);
  }

  #sync(everything: boolean): MqttMessage[] {
    const topics = this.#topics;
    if (topics === undefined) return [];
    const entities = deviceEntities(this.#facts);
    const device = deviceBlock(topics, this.#options.identity(), this.#facts.groups.hardware);
    const messages: MqttMessage[] = [];
    const configs = new Map<string, string>();
    const states = new Map<string, string>();
    for (const entity of entities) {
      const topic = configTopic(topics, entity);
      const payload = JSON.stringify(entityConfig(topics, entity, device, this.#options.origin));
      configs.set(topic, payload);
      if (everything || this.#configs.get(topic) !== payload) messages.push(retained(topic, payload));
    }
    for (const topic of this.#configs.keys()) if (!configs.has(topic)) messages.push(retained(topic, ''));
    // States after the configs: Home Assistant subscribes to a state topic when it reads the config.
    for (const entity of entities) {
      if (!entity.hasState || entity.state === undefined) continue;
      const topic = stateTopic(topics, entity.key);
      states.set(topic, entity.state);
      if (everything || this.#states.get(topic) !== entity.state)
        messages.push(retained(topic, entity.state));
    }
    for (const topic of this.#states.keys()) if (!states.has(topic)) messages.push(retained(topic, ''));
    this.#configs = configs;
    this.#states = states;
    this.#entities = entities;
    return messages;
  }

  #removeAll(): MqttMessage[] {
    const messages = [...this.#configs.keys(), ...this.#states.keys()].map((topic) => retained(topic, ''));
    if (this.#topics !== undefined) messages.push(retained(deviceAvailabilityTopic(this.#topics), ''));
    this.#configs.clear();
    this.#states.clear();
    this.#entities = [];
    return messages;
  }
}

/**
 * Empties the retained topics an earlier node left under another prefix or base topic (the node's
 * settings changed): Home Assistant would keep those entities, and refuse the new configs of the same
 * unique ids. Topics under the current prefix and base are left alone: the bridge publishes them again.
 */
export function leftoverRemovals(previous: readonly string[], prefix: string, base: string): MqttMessage[] {
  return previous
    .filter((topic) => !topic.startsWith(`${prefix}/`) && !topic.startsWith(`${base}/`))
    .map((topic) => retained(topic, ''));
}
